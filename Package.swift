// swift-tools-version:6.1
import PackageDescription

/// Swift 6 hygiene shared by every Daybook target.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Daybook",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "daybook", targets: ["daybook"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // PURE: content models, diagnostics, slugs, hashtags, dates. No I/O, no C.
        .target(name: "DaybookModel", swiftSettings: strictSettings),
        // PURE: the feed core: queries, ordering, pagination, list diffs.
        .target(name: "DaybookFeed", dependencies: ["DaybookModel"], swiftSettings: strictSettings),
        // PURE: raw JSON/YAML records -> validated models with diagnostics. Input is bytes, never a folder.
        .target(
            name: "DaybookContent",
            dependencies: ["DaybookModel", .product(name: "Yams", package: "Yams")],
            swiftSettings: strictSettings
        ),
        // libcmark from Debian's libcmark-dev.
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        // CommonMark -> safe HTML. Calls C, does no I/O.
        .target(name: "DaybookMarkdown", dependencies: ["CCmark"], swiftSettings: strictSettings),
        // gumbo, an HTML5 parser from Debian's libgumbo-dev, for `daybook check`.
        .systemLibrary(name: "CGumbo", pkgConfig: "gumbo", providers: [.apt(["libgumbo-dev"])]),
        // Checks a rendered site: links, fragments, titles, ids, alt text, feeds and the sitemap. No I/O.
        .target(name: "DaybookCheck", dependencies: ["DaybookModel", "CGumbo"], swiftSettings: strictSettings),
        // The default theme, embedded so the binary renders a site wherever it is installed.
        .target(name: "DaybookTheme", swiftSettings: strictSettings),
        // View models and Mustache: a site model in, rendered files out. No I/O.
        .target(
            name: "DaybookRender",
            dependencies: [
                "DaybookModel", "DaybookFeed", "DaybookMarkdown",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: strictSettings
        ),
        // I/O: reads a site folder, runs the pipeline, writes the output folder.
        .target(
            name: "DaybookBuild",
            dependencies: ["DaybookModel", "DaybookFeed", "DaybookContent", "DaybookRender", "DaybookTheme", "DaybookCheck"],
            swiftSettings: strictSettings
        ),
        // The command line: parses arguments, resolves "now", prints diagnostics.
        .target(
            name: "DaybookCLI",
            dependencies: ["DaybookBuild", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "daybook", dependencies: ["DaybookCLI"], swiftSettings: strictSettings),

        .target(
            name: "DaybookTestSupport",
            dependencies: ["DaybookModel", "DaybookBuild"],
            path: "Tests/DaybookTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(name: "DaybookModelTests", dependencies: ["DaybookModel"], swiftSettings: strictSettings),
        .testTarget(name: "DaybookFeedTests", dependencies: ["DaybookFeed", "DaybookTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "DaybookContentTests", dependencies: ["DaybookContent", "DaybookTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "DaybookMarkdownTests", dependencies: ["DaybookMarkdown"], swiftSettings: strictSettings),
        .testTarget(name: "DaybookCheckTests", dependencies: ["DaybookCheck", "DaybookTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "DaybookRenderTests",
            dependencies: ["DaybookRender", "DaybookTestSupport"],
            resources: [.copy("Images")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DaybookBuildTests",
            dependencies: ["DaybookBuild", "DaybookTheme", "DaybookTestSupport"],
            swiftSettings: strictSettings
        ),
        // Runs the built `daybook` binary; depending on it makes `swift test` build it first.
        .testTarget(name: "DaybookEndToEndTests", dependencies: ["daybook", "DaybookTestSupport"], swiftSettings: strictSettings),
    ]
)
