/// A site made to exercise the indexes across page boundaries (pageSize 2).
package enum IndexSite {
    package static let now = "2026-11-21T12:00:00Z"

    package static let archive = """
        -- site.yml --
        title: Indexes
        baseURL: https://example.org/blog/
        pageSize: 2
        feedSize: 3
        -- content/users.json --
        [
          {"id": "zoe", "name": "Zoë", "follows": ["al"]},
          {"id": "al", "name": "al"},
          {"id": "bea"},
          {"id": "Cy", "name": "cy"},
          {"id": "dan", "name": "Dan"}
        ]
        -- content/posts.json --
        [
          {"id": "p1", "author": "zoe", "createdAt": "2026-11-21T01:00:00Z", "caption": "#Sea at dawn with @al.", "location": {"name": "Lisbon"}},
          {"id": "p2", "author": "al", "createdAt": "2026-11-20T01:00:00Z", "caption": "#sea #sky", "location": {"name": "LISBON"}},
          {"id": "p3", "author": "zoe", "createdAt": "2026-11-19T01:00:00Z", "caption": "#sky #café", "location": {"name": "Porto"}},
          {"id": "p4", "author": "zoe", "createdAt": "2026-11-18T01:00:00Z", "caption": "#sea #cafe\\u0301", "location": {"name": "lisbon"}},
          {"id": "p5", "author": "bea", "createdAt": "2026-11-17T01:00:00Z", "caption": "#日本 @nobody", "tags": ["Sea"]},
          {"id": "p6", "author": "zoe", "createdAt": "2026-11-16T01:00:00Z", "caption": "plain", "location": {"name": "Évora"}},
          {"id": "p7", "author": "Cy", "createdAt": "2026-11-23T01:00:00Z", "caption": "#future"}
        ]
        -- content/comments.json --
        [{"id": "c1", "postId": "p2", "author": "bea", "createdAt": "2026-11-20T02:00:00Z", "text": "#sky is nice, #unused is not a page, hi @zoe"}]
        -- content/prompts.json --
        [{"id": "q1", "title": "One"}, {"id": "q2", "title": "Two & <three>", "body": "Some *text*."}, {"id": "q3", "title": "Three"}]
        -- content/sent-prompts.json --
        [
          {"id": "s1", "promptId": "q1", "sentAt": "2026-11-19T08:00:00Z"},
          {"id": "s2", "promptId": "q2", "sentAt": "2026-11-20T08:00:00Z"},
          {"id": "s3", "promptId": "gone", "sentAt": "2026-11-21T08:00:00Z"},
          {"id": "s4", "promptId": "q3", "sentAt": "2026-11-18T08:00:00Z"}
        ]
        """
}
