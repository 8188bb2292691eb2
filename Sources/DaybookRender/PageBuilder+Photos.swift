import DaybookLanguage
import DaybookModel
import Foundation

/// Photos and avatars as CONTRACT §7 draws them: upright sizes, `srcset` candidates, a placeholder
/// colour, and the sensitivity of the post they belong to.
extension PageBuilder {
    /// The width a photo takes on the widest layout, in CSS pixels: the `sizes` attribute says it,
    /// so a phone fetches the 480 copy and a desktop the 960.
    static let photoSizes = "(max-width: 40rem) 100vw, 40rem"
    /// The copy `src` names, for browsers without `srcset`.
    static let preferredWidth = 960

    /// A post's photo, `nil` when it has none.
    func photo(_ post: Post) -> ImageView? {
        guard let reference = post.image else { return nil }
        var view = image(reference, alt: photoAlt(post), lazy: false)
        view.sensitive = post.isSensitive
        view.sensitiveReason = post.sensitiveReason
        return view
    }

    /// A photo's alt text: the post's own, else whose photo it is (a photo without alt text is
    /// still content, not decoration). Pages and link previews alike.
    func photoAlt(_ post: Post) -> String { post.imageAlt ?? words.text("photoBy", ["name": author(post.author).name]) }

    /// An image named by content, with its responsive copies when the build made some.
    func image(_ reference: String, alt: String, lazy: Bool) -> ImageView {
        reads?.record(.image(reference))
        var view = ImageView(src: urls.asset(reference), alt: alt, lazy: lazy, size: input.imageSizes[reference])
        guard let responsive = input.images[reference], let src = responsive.copy(preferring: Self.preferredWidth) else {
            view.largeURL = view.src
            return view
        }
        func link(_ path: String) -> String { urls.asset(SiteURLs.percentEncoded(path)) }
        view.src = link(src.path)
        view.size = responsive.size
        view.srcset = responsive.copies.map { "\(link($0.path)) \($0.width)w" }.joined(separator: ", ")
        view.sizes = Self.photoSizes
        view.color = responsive.dominantColor
        view.largeURL = responsive.copies.last.map { link($0.path) }
        view.thumbnailSrc = responsive.thumbnail.map { link($0.path) }
        view.thumbnailSide = responsive.thumbnail?.width
        return view
    }

    /// An avatar: the thumbnail (square, a few kB) when there is one, never a camera-sized copy.
    func avatar(_ reference: String, lazy: Bool) -> ImageView {
        reads?.record(.image(reference))
        var view = ImageView(src: urls.asset(reference), alt: "", lazy: lazy, size: input.imageSizes[reference])
        guard let responsive = input.images[reference] else { return view }
        if let thumbnail = responsive.thumbnail {
            view.src = urls.asset(SiteURLs.percentEncoded(thumbnail.path))
            view.size = ImageSize(width: thumbnail.width, height: thumbnail.height)
        } else if let copy = responsive.copies.first {
            view.src = urls.asset(SiteURLs.percentEncoded(copy.path))
            view.size = ImageSize(width: copy.width, height: copy.height)
        }
        view.color = responsive.dominantColor
        return view
    }
}

extension PageBuilder {
    /// `report` (CONTRACT §7) with `{url}` replaced by the post page's absolute URL, percent-encoded
    /// as a query value, so `mailto:x?subject={url}` and `https://…?u={url}` both stay one URL.
    func reportURL(_ post: Post) -> String? {
        guard let report = input.config.report else { return nil }
        let address = urls.absolute(SiteURLs.percentEncoded(SiteURLs.post(post.id)))
        return report.replacingOccurrences(of: "{url}", with: Self.queryEncoded(address))
    }

    /// Every byte but the unreserved ones (RFC 3986: letters, digits, `-._~`) as `%XX`.
    static func queryEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
