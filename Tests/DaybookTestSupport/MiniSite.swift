/// A small site used by several build and end-to-end tests: every collection, every form, a
/// placeholder entry, a future post and a comment on a missing post. Its photo `a.png` holds SVG
/// bytes (the build goes by bytes, not names): published as it is, so no test waits on libvips.
package enum MiniSite {
    /// Built with `now` = 2026-11-21T12:00:00Z in Europe/Lisbon (UTC+0 in November).
    package static let now = "2026-11-21T12:00:00Z"

    package static let archive = """
        -- site.yml --
        title: Mini
        timeZone: Europe/Lisbon
        pageSize: 2
        -- content/prompts.json --
        [
          {"id": "today", "title": "Today's question", "date": "2026-11-21", "body": "Look *out*."},
          {"id": "older", "title": "An older question", "body": "First paragraph.\\n\\nSecond paragraph."},
          {"id": "twice", "title": "Asked twice"}
        ]
        -- content/prompts/extra.md --
        ---
        id: extra
        title: Never sent
        ---
        Not in the journal.
        -- content/sent-prompts.json --
        [
          {"id": "s1", "promptId": "older", "sentAt": "2026-11-19T08:00:00Z"},
          {"id": "s2", "promptId": "twice", "sentAt": "2026-11-18T08:00:00Z"},
          {"id": "s3", "promptId": "twice", "sentAt": "2026-11-20T08:00:00Z"},
          {"id": "s4", "promptId": "lost", "sentAt": "2026-11-17T08:00:00Z"},
          {"id": "s5", "promptId": "today", "sentAt": "2026-11-10T08:00:00Z"},
          {"id": "s6", "promptId": "extra", "sentAt": "2026-11-22T08:00:00Z"}
        ]
        -- content/users/ana.md --
        ---
        id: ana
        name: Ana
        follows: [ben]
        ---
        Photographs *rivers*.
        -- content/users.json --
        [{"id": "ben", "name": "Ben"}, {"id": "cai"}]
        -- content/posts.json --
        [
          {"id": "p1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "caption": "River #Lisbon", "image": "images/a.png", "imageAlt": "A river"},
          {"id": "p2", "author": "ben", "createdAt": "2026-11-20T10:00:00Z", "caption": "Same minute"},
          {"id": "p3", "author": "cai", "createdAt": "2026-11-21T09:00:00Z", "location": {"name": "Porto"}},
          {"id": "p9", "author": "ana", "createdAt": "2026-11-22T09:00:00Z", "caption": "From the future"}
        ]
        -- content/posts/p4.md --
        ---
        id: p4
        author: ben
        createdAt: 2026-11-19T08:00:00+01:00
        ---
        Markdown-file post
        -- content/comments.json --
        [
          {"id": "c2", "postId": "p1", "author": "ben", "createdAt": "2026-11-20T11:00:00Z", "text": "Second"},
          {"id": "c1", "postId": "p1", "author": "cai", "createdAt": "2026-11-20T10:30:00Z", "text": "First"},
          {"id": "c3", "postId": "p1", "author": "ana", "createdAt": "2026-11-23T10:30:00Z", "text": "Future"},
          {"id": "c4", "postId": "nope", "author": "ana", "createdAt": "2026-11-20T10:30:00Z", "text": "Orphan"}
        ]
        -- content/images/a.png --
        <svg xmlns="http://www.w3.org/2000/svg"></svg>
        """
}
