@testable import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 39's proof, at random: a generated site takes a sequence of edits, and after each the
/// incremental build's output (its record too) is byte for byte a fresh build's of the same
/// files at the same "now". Each sequence rebuilds one way: as `daybook build` (caches on
/// disk), as `serve` (a session's memory), or as `serve` told the changed paths. A failure is
/// shrunk to the fewest edits that still fail.
///
/// CI runs `DAYBOOK_PROPERTY_SEQUENCES` (default 6) sequences of `DAYBOOK_PROPERTY_EDITS`
/// (default 8) edits; the closing notes report a long run (200 of 20).
@Suite("Whole-site edits, at random")
struct SiteEditPropertyTests {
    enum Kind: String, CaseIterable, Sendable {
        case caption, deletePost, newPost, newComment, deleteComment, follow, siteYml, template, image, replaceImage, rename, renameUser,
            touch, midnight, draft, future
    }

    /// An edit and the seed of its choices: an edit left out while shrinking does not change
    /// what the others choose.
    struct Edit: Sendable, CustomStringConvertible {
        var kind: Kind
        var seed: UInt64
        var description: String { "\(kind.rawValue)#\(seed % 1000)" }
    }

    enum Rebuilds: Int, CaseIterable { case onDisk, held, named }

    struct Post {
        var id: String
        var author: String
        var createdAt: String
        var caption: String
        var place: String?
        var draft = false
        var image: String?
        /// `lang` (§11): a caption in another language than the site's.
        var lang: String?
        /// Written as `content/posts/<file>.md` rather than in posts.json.
        var file: String?
    }

    struct Comment {
        var id: String
        var postID: String
        var author: String
        var createdAt: String
        var text: String
        var draft = false
    }

    /// The site as values; `files` writes it out.
    struct Model {
        static let people = ["ana", "ben", "cai", "dee"]
        static let words = ["sea", "tram", "light", "harbour", "#coast", "#tiles", "#sky", "@ana", "@ben", "dawn", "café", "東京"]
        static let places = ["Lisbon", "Porto", "Évora", nil]

        var title = "Random"
        var pageSize = 2
        /// The site's `language` (§11): English, Portuguese or Arabic, right to left.
        var language = "en"
        var names = ["ana": "Ana", "ben": "Ben", "cai": "Cai", "dee": "Dee"]
        var follows: [String: [String]] = ["ana": ["ben"]]
        var posts: [Post] = []
        var comments: [Comment] = []
        var template: String?
        /// Each photo's colour: replacing a photo in place changes its bytes, not its path.
        var images: [String: UInt8] = [:]
        var day = 21
        var counter = 0

        var now: String { String(format: "2026-11-%02dT12:00:00Z", day) }

        init(_ random: inout SeededGenerator) {
            for _ in 0..<6 { addPost(&random, daysAgo: Int.random(in: 0...5, using: &random)) }
            for _ in 0..<3 { addComment(&random) }
        }

        mutating func next(_ prefix: String) -> String {
            counter += 1
            return "\(prefix)\(counter)"
        }

        static func sentence(_ random: inout SeededGenerator) -> String {
            (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
        }

        mutating func addPost(_ random: inout SeededGenerator, daysAgo: Int) {
            let hour = Int.random(in: 0...11, using: &random)
            posts.append(
                Post(
                    id: next("p"), author: Self.people.randomElement(using: &random)!,
                    createdAt: String(format: "2026-11-%02dT%02d:00:00Z", day - daysAgo, hour), caption: Self.sentence(&random),
                    place: Self.places.randomElement(using: &random)!))
        }

        mutating func addComment(_ random: inout SeededGenerator) {
            guard let post = posts.randomElement(using: &random) else { return }
            comments.append(
                Comment(
                    id: next("c"), postID: post.id, author: Self.people.randomElement(using: &random)!,
                    createdAt: String(format: "2026-11-%02dT%02d:30:00Z", day, Int.random(in: 0...11, using: &random)), text: Self.sentence(&random)))
        }

        mutating func apply(_ edit: Edit) {
            var random = SeededGenerator(seed: edit.seed)
            let post = posts.isEmpty ? nil : Int.random(in: 0..<posts.count, using: &random)
            switch edit.kind {
            case .caption:
                if let post {
                    posts[post].caption = Self.sentence(&random)
                    if Int.random(in: 0..<3, using: &random) == 0 { posts[post].lang = posts[post].lang == nil ? "ar" : nil }
                }
            case .deletePost: if let post { posts.remove(at: post) }
            case .newPost: addPost(&random, daysAgo: Int.random(in: 0...3, using: &random))
            case .newComment: addComment(&random)
            case .deleteComment: if !comments.isEmpty { comments.remove(at: Int.random(in: 0..<comments.count, using: &random)) }
            case .follow:
                let (who, whom) = (Self.people.randomElement(using: &random)!, Self.people.randomElement(using: &random)!)
                if who != whom {
                    var list = follows[who] ?? []
                    if let at = list.firstIndex(of: whom) { list.remove(at: at) } else { list.append(whom) }
                    follows[who] = list
                }
            case .siteYml:
                switch Int.random(in: 0..<3, using: &random) {
                case 0: pageSize = pageSize == 2 ? 3 : 2
                case 1: title = title == "Random" ? "Random, renamed" : "Random"
                default: language = ["en": "pt", "pt": "ar", "ar": "en"][language]!
                }
            case .template:
                template = template == nil ? "<a class=\"tag\" href=\"{{url}}\" data-id=\"{{dataID}}\">#{{name}} ({{countLabel}})</a>\n" : nil
            case .image:
                if let post {
                    if let image = posts[post].image {
                        posts[post].image = nil
                        if !posts.contains(where: { $0.image == image }) { images[image] = nil }
                    } else {
                        let image = "images/\(next("i")).png"
                        images[image] = 60
                        posts[post].image = image
                    }
                }
            case .replaceImage:
                if let image = images.keys.sorted().randomElement(using: &random) { images[image] = images[image]! &+ 40 }
            case .renameUser:
                let id = Self.people.randomElement(using: &random)!
                names[id] = names[id] == id.capitalized ? id.capitalized + " " + Self.sentence(&random).prefix(3) : id.capitalized
            case .rename:
                // Into a Markdown file, or that file renamed.
                if let post { posts[post].file = next("file-") }
            case .touch: break
            case .midnight: day += 1
            case .draft:
                if let post { posts[post].draft.toggle() } else if !comments.isEmpty { comments[0].draft.toggle() }
            case .future:
                posts.append(
                    Post(
                        id: next("p"), author: Self.people.randomElement(using: &random)!, createdAt: String(format: "2026-11-%02dT06:00:00Z", day + 1),
                        caption: "soon " + Self.sentence(&random)))
            }
        }

        static func quoted(_ text: String) -> String {
            String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
        }

        func postJSON(_ post: Post) -> String {
            var fields = [
                #""id": \#(Self.quoted(post.id))"#, #""author": "\#(post.author)""#, #""createdAt": "\#(post.createdAt)""#,
                #""caption": \#(Self.quoted(post.caption))"#,
            ]
            if let place = post.place { fields.append(#""location": {"name": \#(Self.quoted(place))}"#) }
            if post.draft { fields.append(#""draft": true"#) }
            if let image = post.image { fields.append(#""image": "\#(image)""#) }
            if let lang = post.lang { fields.append(#""lang": "\#(lang)""#) }
            return "{" + fields.joined(separator: ", ") + "}"
        }

        var files: [String: [UInt8]] {
            var files: [String: [UInt8]] = [:]
            func text(_ path: String, _ value: String) { files[path] = Array(value.utf8) }
            text("site.yml", "title: \(title)\nbaseURL: https://example.org/\ntimeZone: UTC\npageSize: \(pageSize)\nfeedSize: 3\nlanguage: \(language)\n")
            let users = Self.people.map { id in
                let follows = (follows[id] ?? []).map { "\"\($0)\"" }.joined(separator: ", ")
                return #"{"id": "\#(id)", "name": \#(Self.quoted(names[id] ?? id)), "follows": [\#(follows)]}"#
            }
            text("content/users.json", "[\n" + users.joined(separator: ",\n") + "\n]\n")
            text("content/posts.json", "[\n" + posts.filter { $0.file == nil }.map(postJSON).joined(separator: ",\n") + "\n]\n")
            for post in posts {
                guard let file = post.file else { continue }
                var front = "id: \(post.id)\nauthor: \(post.author)\ncreatedAt: \(post.createdAt)\ncaption: \(Self.quoted(post.caption))\n"
                if let place = post.place { front += "location:\n  name: \(Self.quoted(place))\n" }
                if post.draft { front += "draft: true\n" }
                if let image = post.image { front += "image: \(image)\n" }
                if let lang = post.lang { front += "lang: \(lang)\n" }
                text("content/posts/\(file).md", "---\n" + front + "---\n")
            }
            let comments = comments.map { comment in
                #"{"id": "\#(comment.id)", "postId": "\#(comment.postID)", "author": "\#(comment.author)", "createdAt": "\#(comment.createdAt)", "text": \#(Self.quoted(comment.text))\#(comment.draft ? #", "draft": true"# : "")}"#
            }
            text("content/comments.json", "[\n" + comments.joined(separator: ",\n") + "\n]\n")
            text("content/prompts.json", #"[{"id": "q1", "title": "One", "body": "Some *text* about the sea."}, {"id": "q2", "title": "Two"}]"#)
            text(
                "content/sent-prompts.json",
                #"[{"id": "s1", "promptId": "q1", "sentAt": "2026-11-20T08:00:00Z"}, {"id": "s2", "promptId": "q2", "sentAt": "2026-11-22T08:00:00Z"}]"#)
            text("content/responses.json", #"[{"id": "r1", "promptId": "q1", "createdAt": "2026-11-20T09:00:00Z", "text": "The #sea, again."}]"#)
            if let template { text("Templates/item-tag.mustache", template) }
            for (image, colour) in images { files["content/" + image] = TestPNG.make(width: 12, height: 8, rgb: (200, 120, colour)) }
            return files
        }
    }

    /// Writes `files` over what `site` holds (`held`), removes what is gone; the paths that changed.
    static func write(_ files: [String: [UInt8]], over held: [String: [UInt8]], to site: SiteFixture, touch: Bool) throws -> [String] {
        var changed: [String] = []
        for (path, bytes) in files where held[path] != bytes || (touch && path == "content/comments.json") {
            try site.write(path, bytes: bytes)
            changed.append(path)
        }
        for path in held.keys where files[path] == nil {
            try FileManager.default.removeItem(at: site.directory.appending(path: path))
            changed.append(path)
        }
        return changed.sorted()
    }

    /// The first step of `edits` whose incremental output differs from a fresh build's, described; `nil` when none does.
    static func firstMismatch(seed: UInt64, _ edits: [Edit], _ rebuilds: Rebuilds) async throws -> String? {
        var random = SeededGenerator(seed: seed)
        var model = Model(&random)
        let site = try SiteFixture("")
        defer { try? FileManager.default.removeItem(at: site.directory) }
        var held: [String: [UInt8]] = [:]
        _ = try write(model.files, over: held, to: site, touch: false)
        held = model.files
        let store = ProcessMemo(site: site.directory)
        let builder = SiteBuilder(racyWindow: 0)
        func build(changed: [String]?) async -> BuildResult {
            let options = BuildOptions(siteDirectory: site.directory, now: Fixed.at(model.now))
            switch rebuilds {
            case .onDisk: return await builder.build(options)
            case .held: return await builder.build(options, session: BuildSession(memo: store))
            case .named: return await builder.build(options, session: BuildSession(memo: store, changedSources: changed))
            }
        }
        _ = await build(changed: nil)
        for (step, edit) in edits.enumerated() {
            model.apply(edit)
            let files = model.files
            let changed = try write(files, over: held, to: site, touch: edit.kind == .touch)
            held = files
            let incremental = await build(changed: changed)
            let fresh = try SiteFixture("")
            defer { try? FileManager.default.removeItem(at: fresh.directory) }
            _ = try write(files, over: [:], to: fresh, touch: false)
            let full = await builder.build(BuildOptions(siteDirectory: fresh.directory, now: Fixed.at(model.now)))
            let (a, b) = (site.tree("output"), fresh.tree("output"))
            guard full.succeeded, b.count > 20 else { return "after edit \(step + 1) (\(edit)): the fresh build failed or made next to nothing (\(b.count) files): \(full.diagnostics.prefix(2))" }
            if incremental.succeeded != full.succeeded || a != b {
                let differing = Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
                return "after edit \(step + 1) (\(edit)): \(differing.count) files differ, first \(differing.prefix(4)); "
                    + "incremental \(incremental.succeeded ? "built" : "failed: \(incremental.diagnostics.prefix(2))")"
            }
        }
        return nil
    }

    static func setting(_ name: String, _ fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? fallback
    }

    @Test("random sequences of edits: after each, the incremental output and record are a fresh build's, on disk and as serve builds")
    func randomSequences() async throws {
        let sequences = Self.setting("DAYBOOK_PROPERTY_SEQUENCES", 6)
        let length = Self.setting("DAYBOOK_PROPERTY_EDITS", 8)
        var random = SeededGenerator(seed: UInt64(Self.setting("DAYBOOK_PROPERTY_SEED", 39)))
        for sequence in 0..<sequences {
            let seed = random.next()
            let edits = (0..<length).map { _ in Edit(kind: Kind.allCases.randomElement(using: &random)!, seed: random.next()) }
            let rebuilds = Rebuilds.allCases[sequence % Rebuilds.allCases.count]
            guard let failure = try await Self.firstMismatch(seed: seed, edits, rebuilds) else { continue }
            // Shrink: leave out each edit in turn while the sequence still fails.
            var shortest = edits
            var index = 0
            while index < shortest.count {
                var fewer = shortest
                fewer.remove(at: index)
                if try await Self.firstMismatch(seed: seed, fewer, rebuilds) != nil { shortest = fewer } else { index += 1 }
            }
            let shrunk = try await Self.firstMismatch(seed: seed, shortest, rebuilds) ?? failure
            Issue.record("sequence \(sequence) (\(rebuilds), site seed \(seed)): \(shrunk); shrunk to \(shortest)")
            return
        }
        print("whole-site edits: \(sequences) sequences of \(length) edits, every incremental build a fresh build's")
    }
}
