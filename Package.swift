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
        // Exactly 2.1.1: `CompiledTemplate` reads its parsed tokens, which are internal, by
        // reflection. Another release may change them without notice; a newer one is taken only
        // by changing this line, after `CompiledTemplateTests` (the default theme compiles, every
        // token kind) and `TemplateWalkTests` (the example site, byte for byte as swift-mustache
        // renders it) pass against it.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // PURE: content models, diagnostics, slugs, hashtags, dates. No I/O, no C.
        .target(name: "DaybookModel", swiftSettings: strictSettings),
        // An order-keeping parallel map on all cores (Dispatch, ProcessInfo): kept out of the pure model.
        .target(name: "DaybookParallel", swiftSettings: strictSettings),
        // PURE: the feed core: queries, ordering, pagination, list diffs.
        .target(name: "DaybookFeed", dependencies: ["DaybookModel", "DaybookParallel"], swiftSettings: strictSettings),
        // PURE: raw JSON/YAML records -> validated models with diagnostics. Input is bytes, never a folder.
        .target(
            name: "DaybookContent",
            dependencies: ["DaybookModel", "DaybookParallel", "DaybookLanguage", .product(name: "Yams", package: "Yams")],
            swiftSettings: strictSettings
        ),
        // libcmark from Debian's libcmark-dev.
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        // CommonMark -> safe HTML. Calls C, does no I/O.
        .target(name: "DaybookMarkdown", dependencies: ["DaybookModel", "CCmark"], swiftSettings: strictSettings),
        // gumbo, an HTML5 parser from Debian's libgumbo-dev, for `daybook check`.
        .systemLibrary(name: "CGumbo", pkgConfig: "gumbo", providers: [.apt(["libgumbo-dev"])]),
        // Checks a rendered site: links, fragments, titles, ids, alt text, feeds and the sitemap. No I/O.
        .target(name: "DaybookCheck", dependencies: ["DaybookModel", "DaybookParallel", "CGumbo"], swiftSettings: strictSettings),
        // ICU's CLDR plural rules from Debian's libicu-dev, through a C shim: ICU's version-suffixed
        // names are macros, which Swift cannot import.
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),
        // Language rules: CLDR plural categories (ICU) and dates as a language writes them. No I/O.
        .target(name: "DaybookLanguage", dependencies: ["DaybookModel", "CICU"], swiftSettings: strictSettings),
        // The default theme, embedded so the binary renders a site wherever it is installed.
        .target(name: "DaybookTheme", swiftSettings: strictSettings),
        // View models and Mustache: a site model in, rendered files out. No I/O.
        .target(
            name: "DaybookRender",
            dependencies: [
                "DaybookModel", "DaybookFeed", "DaybookMarkdown", "DaybookParallel", "DaybookLanguage", "DaybookContent", "DaybookTheme",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: strictSettings
        ),
        // The incremental layer: memoised steps of the build, each keyed by the version of what it
        // read, kept in memory by `serve` and in one container by `daybook build`. No I/O.
        .target(
            name: "DaybookIncremental", dependencies: ["DaybookModel", "DaybookParallel", "DaybookFeed", "DaybookContent", "DaybookMarkdown", "DaybookRender"],
            swiftSettings: strictSettings),
        // openat2(2) with RESOLVE_BENEATH: a site's files are opened confined to the site folder.
        .target(name: "CConfinedOpen"),
        // mallopt(3) and malloc_trim(3), which Swift's Glibc module leaves out: how a build's
        // threads share glibc's heap, and when it gives freed memory back.
        .target(name: "CHeap"),
        // I/O: reads a site folder, runs the pipeline, writes the output folder.
        .target(
            name: "DaybookBuild",
            dependencies: [
                "DaybookModel", "DaybookFeed", "DaybookContent", "DaybookRender", "DaybookTheme", "DaybookCheck", "DaybookImages", "DaybookParallel",
                "DaybookIncremental", "DaybookLanguage", "CConfinedOpen", "CHeap",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: strictSettings
        ),
        // I/O: the preview server. Its own target, so the core builds without Hummingbird.
        .target(
            name: "DaybookServer",
            dependencies: [
                "DaybookBuild",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The command line: parses arguments, resolves "now", prints diagnostics.
        .target(
            name: "DaybookCLI",
            dependencies: ["DaybookBuild", "DaybookContent", "DaybookServer", "DaybookRender", "DaybookLanguage", "DaybookModel", "CHeap", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "daybook", dependencies: ["DaybookCLI"], swiftSettings: strictSettings),
        // libvips from Debian's libvips-dev: its headers and library, for the tests that make
        // images and hold CVipsLoader's values to libvips's own.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // libvips opened with dlopen when the first photo needs it, so no other command loads it
        // and the hundred libraries it pulls in (18 ms of every start).
        .target(name: "CVipsLoader", linkerSettings: [.linkedLibrary("dl")]),
        // Responsive copies, square thumbnails, colours, stripped originals and their cache.
        // Its own target, so the core builds without libvips; I/O only in its cache folder.
        .target(name: "DaybookImages", dependencies: ["DaybookModel", "DaybookParallel", "CVipsLoader"], swiftSettings: strictSettings),
        // scripts/bench-images: encoding throughput of DaybookImages against vipsthumbnail.
        .executableTarget(
            name: "daybook-bench-images", dependencies: ["DaybookImages"], path: "scripts/bench-images-swift", swiftSettings: strictSettings),

        .target(
            name: "DaybookTestSupport",
            dependencies: ["DaybookModel", "DaybookBuild"],
            path: "Tests/DaybookTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(name: "DaybookModelTests", dependencies: ["DaybookModel", "DaybookTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "DaybookFeedTests", dependencies: ["DaybookFeed", "DaybookTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "DaybookIncrementalTests", dependencies: ["DaybookIncremental", "DaybookTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "DaybookContentTests", dependencies: ["DaybookContent", "DaybookTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "DaybookMarkdownTests", dependencies: ["DaybookMarkdown", "DaybookModel"], swiftSettings: strictSettings),
        .testTarget(name: "DaybookLanguageTests", dependencies: ["DaybookLanguage", "DaybookModel"], swiftSettings: strictSettings),
        .testTarget(name: "DaybookImagesTests", dependencies: ["DaybookImages", "CVips", "CVipsLoader", "DaybookTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "DaybookCheckTests", dependencies: ["DaybookCheck", "DaybookTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "DaybookServerTests",
            dependencies: [
                "DaybookServer", "DaybookTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DaybookRenderTests",
            dependencies: ["DaybookRender", "DaybookLanguage", "DaybookContent", "DaybookTestSupport", .product(name: "Mustache", package: "swift-mustache")],
            resources: [.copy("Images")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DaybookBuildTests",
            dependencies: ["DaybookBuild", "DaybookIncremental", "DaybookTheme", "DaybookTestSupport"],
            // Golden pages, read by path (#filePath), not bundled.
            exclude: ["Snapshots"],
            swiftSettings: strictSettings
        ),
        // Drives Debian's headless Chromium over the DevTools protocol against sites served on loopback.
        .testTarget(
            name: "DaybookBrowserTests",
            dependencies: [
                "DaybookServer", "DaybookTestSupport", "DaybookRender", "DaybookLanguage", "DaybookModel", "DaybookImages",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Runs the built `daybook` binary; depending on it makes `swift test` build it first.
        .testTarget(name: "DaybookEndToEndTests", dependencies: ["daybook", "DaybookTestSupport"], swiftSettings: strictSettings),
    ]
)

// Fuzz targets for the content readers (issue 10). `scripts/fuzz` builds them with libFuzzer and
// the address sanitizer into .build-fuzz; a plain `swift build` makes each a program that replays
// the files named on its command line (see Fuzz/Support/FuzzEntry.swift).
package.targets += [
    .target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"),
    .target(name: "DaybookFuzzSupport", dependencies: ["DaybookContent", "CFuzzDriver"], path: "Fuzz/Support", swiftSettings: strictSettings),
    .executableTarget(name: "FuzzJSON", dependencies: ["DaybookFuzzSupport"], path: "Fuzz/FuzzJSON", swiftSettings: strictSettings),
    .executableTarget(name: "FuzzMarkdown", dependencies: ["DaybookFuzzSupport"], path: "Fuzz/FuzzMarkdown", swiftSettings: strictSettings),
    .executableTarget(name: "FuzzConfig", dependencies: ["DaybookFuzzSupport"], path: "Fuzz/FuzzConfig", swiftSettings: strictSettings),
    .executableTarget(
        name: "FuzzCache", dependencies: ["DaybookFuzzSupport", "DaybookBuild", "DaybookCheck", "DaybookFeed", "DaybookImages", "DaybookRender", "DaybookIncremental"],
        path: "Fuzz/FuzzCache", swiftSettings: strictSettings),
]
