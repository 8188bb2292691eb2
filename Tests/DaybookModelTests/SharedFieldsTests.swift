import DaybookModel
import Testing

/// Comments and posts keep their fields in a shared box; they must still behave as plain values.
@Suite("Comments and posts as values")
struct SharedFieldsTests {
    let comment = Comment(id: "c1", postID: "p1", author: "ana", createdAt: Instant(secondsSince1970: 100), text: "hi")

    @Test("setting a field of a copy leaves the original as it was")
    func copyOnWrite() {
        var copy = comment
        copy.text = "edited"
        copy.origin = SourceLocation(path: "content/comments.json", line: 3, column: 5)
        #expect(comment.text == "hi")
        #expect(comment.origin == nil)
        #expect(copy.text == "edited")
        #expect(copy.origin?.line == 3)
        #expect(copy.id == "c1" && copy.postID == "p1" && copy.author == "ana")
    }

    @Test("comments built apart with equal fields are equal and hash alike; one differing field makes them differ")
    func equality() {
        let twin = Comment(id: "c1", postID: "p1", author: "ana", createdAt: Instant(secondsSince1970: 100), text: "hi")
        #expect(twin == comment)
        #expect(Set([twin, comment]).count == 1)
        var later = twin
        later.updatedAt = Instant(secondsSince1970: 200)
        #expect(later != comment)
        var draft = twin
        draft.isDraft = true
        #expect(draft != comment)
    }

    @Test("a post's copy takes its own edits; equal fields are equal wherever they were built")
    func post() {
        let post = Post(id: "p1", author: "ana", createdAt: Instant(secondsSince1970: 100), caption: "#Sea", extraTags: ["sky"])
        var copy = post
        copy.caption = "#Hill"
        copy.isSensitive = true
        #expect(post.tags == ["sea", "sky"])
        #expect(copy.tags == ["hill", "sky"])
        #expect(!post.isSensitive && copy.isSensitive)
        let twin = Post(id: "p1", author: "ana", createdAt: Instant(secondsSince1970: 100), caption: "#Sea", extraTags: ["sky"])
        #expect(twin == post && Set([twin, post]).count == 1)
        #expect(copy != post)
    }
}
