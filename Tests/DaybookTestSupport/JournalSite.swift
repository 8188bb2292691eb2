/// A site for issue 12's rules: responses (ordered, edited, future, draft, orphaned), draft
/// prompts, posts and comments, edits, per-person feeds and post navigation.
package enum JournalSite {
    /// Built with `now` = 2026-11-21T12:00:00Z, UTC.
    package static let now = "2026-11-21T12:00:00Z"

    package static let archive = """
        -- site.yml --
        title: J
        baseURL: https://j.example/
        feedSize: 2
        -- content/prompts.json --
        [
          {"id": "a", "title": "A", "updatedAt": "2026-11-20T12:00:00Z"},
          {"id": "b", "title": "B"},
          {"id": "hidden", "title": "Draft prompt", "draft": true},
          {"id": "unsent", "title": "Never sent"}
        ]
        -- content/sent-prompts.json --
        [
          {"id": "s1", "promptId": "a", "sentAt": "2026-11-19T08:00:00Z"},
          {"id": "s2", "promptId": "b", "sentAt": "2026-11-20T08:00:00Z"},
          {"id": "s3", "promptId": "hidden", "sentAt": "2026-11-18T08:00:00Z"}
        ]
        -- content/responses.json --
        [
          {"id": "r2", "promptId": "a", "createdAt": "2026-11-19T10:00:00Z", "text": "Second, *same time*"},
          {"id": "r1", "promptId": "a", "createdAt": "2026-11-19T10:00:00Z", "text": "First by id", "updatedAt": "2026-11-21T09:00:00Z"},
          {"id": "r0", "promptId": "a", "createdAt": "2026-11-19T09:00:00Z", "text": "Oldest"},
          {"id": "rf", "promptId": "a", "createdAt": "2026-11-22T09:00:00Z", "text": "From the future"},
          {"id": "rd", "promptId": "b", "createdAt": "2026-11-20T09:30:00Z", "text": "A draft", "draft": true},
          {"id": "rh", "promptId": "hidden", "createdAt": "2026-11-18T09:00:00Z", "text": "Goes with its draft prompt"},
          {"id": "rx", "promptId": "missing", "createdAt": "2026-11-18T09:00:00Z", "text": "No such prompt"},
          {"id": "ru", "promptId": "unsent", "createdAt": "2026-11-18T09:00:00Z", "text": "No entry"}
        ]
        -- content/responses/r3.md --
        ---
        id: r3
        promptId: b
        createdAt: 2026-11-20T09:00:00Z
        updatedAt: 2026-11-19T09:00:00Z
        ---
        From *Markdown*.
        -- content/users.json --
        [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}, {"id": "cai"}]
        -- content/posts.json --
        [
          {"id": "p1", "author": "ana", "createdAt": "2026-11-18T10:00:00Z", "image": "https://img.example/1.jpg", "imageAlt": "x"},
          {"id": "p2", "author": "ana", "createdAt": "2026-11-19T10:00:00Z", "caption": "words only", "updatedAt": "2026-11-20T10:00:00Z"},
          {"id": "p3", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "caption": "latest"},
          {"id": "pd", "author": "ana", "createdAt": "2026-11-20T11:00:00Z", "caption": "a draft post", "draft": true},
          {"id": "b1", "author": "ben", "createdAt": "2026-11-20T10:00:00Z", "caption": "Ben's"}
        ]
        -- content/comments.json --
        [
          {"id": "c1", "postId": "p1", "author": "ben", "createdAt": "2026-11-18T11:05:00Z", "text": "one"},
          {"id": "c2", "postId": "p2", "author": "ben", "createdAt": "2026-11-20T11:00:00Z", "text": "two"},
          {"id": "c3", "postId": "p3", "author": "ben", "createdAt": "2026-11-20T11:00:00Z", "text": "three, same time"},
          {"id": "c4", "postId": "p1", "author": "ben", "createdAt": "2026-11-19T09:00:00Z", "text": "a draft comment", "draft": true},
          {"id": "cd", "postId": "pd", "author": "ben", "createdAt": "2026-11-20T11:30:00Z", "text": "on a draft post"},
          {"id": "c5", "postId": "b1", "author": "ana", "createdAt": "2026-11-20T12:00:00Z", "text": "on Ben's"}
        ]
        """
}
