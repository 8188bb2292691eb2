/// The site the browser tests open: eight posts three to a page, so the timeline has three pages
/// (3, 3, 2), with hashtags, people and places for the search.
enum BrowserSite {
    static let now = "2026-11-21T12:00:00Z"

    static let posts = """
        [
          {"id": "p8", "author": "ana", "createdAt": "2026-11-21T08:00:00Z", "caption": "Up the ridge #hiking", "location": {"name": "Sintra"}},
          {"id": "p7", "author": "ben", "createdAt": "2026-11-20T08:00:00Z", "caption": "Low tide #sea"},
          {"id": "p6", "author": "cai", "createdAt": "2026-11-19T08:00:00Z", "caption": "Morning #hiking #fog", "location": {"name": "Lisbon"}},
          {"id": "p5", "author": "ana", "createdAt": "2026-11-18T08:00:00Z", "caption": "Tram 28"},
          {"id": "p4", "author": "ben", "createdAt": "2026-11-17T08:00:00Z", "caption": "Waves #sea", "location": {"name": "Cascais"}},
          {"id": "p3", "author": "cai", "createdAt": "2026-11-16T08:00:00Z", "caption": "Tiles"},
          {"id": "p2", "author": "ana", "createdAt": "2026-11-15T08:00:00Z", "caption": "Summit at last #hiking"},
          {"id": "p1", "author": "ben", "createdAt": "2026-11-14T08:00:00Z", "caption": "First light"}
        ]
        """

    static let archive = """
        -- site.yml --
        title: Browser
        baseURL: https://example.org/
        timeZone: UTC
        pageSize: 3
        -- content/users.json --
        [{"id": "ana", "name": "Ana Lima"}, {"id": "ben", "name": "Ben"}, {"id": "cai", "name": "Cai Hikes"}]
        -- content/posts.json --
        \(posts)
        """
}
