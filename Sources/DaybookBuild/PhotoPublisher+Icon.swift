import DaybookImages
import DaybookModel

extension PhotoPublisher {
    /// An icon smaller than this on its shorter side is scaled up to the largest of
    /// `SiteIcon.sizes`, and looks soft on a phone's home screen: a warning says so.
    static var iconSideWanted: Int { SiteIcon.sizes.map(\.side).max() ?? 0 }

    /// Makes the site's icons from `icon` in site.yml (issue 41) through the image pipeline and
    /// its cache, as a photo's copies are: read from the cache when the file is unchanged. The
    /// file is read on every build (one small file) rather than remembered by its status.
    ///
    /// Errors are reported at `icon` in site.yml: that is where the icon is chosen.
    func publishIcon(into published: inout Published, read: (String) -> Result<[UInt8], FileInfo.ReadFailure>) {
        guard let icon = config.icon else { return }
        let place = config.iconPosition ?? SourceLocation(path: "site.yml")
        let bytes: [UInt8]
        switch read("content/" + icon) {
        case .success(let read): bytes = read
        case .failure(let failure):
            published.diagnostics.append(.error("icon 'content/\(icon)': " + Self.message(failure), at: place))
            return
        }
        let made: ProcessedIcon
        do {
            let pipeline = try ImagePipeline(settings: settings, cacheFolder: Self.cacheFolder(site: siteDirectory), faults: faults)
            made = try pipeline.icon(source: bytes, path: icon) { SiteIcon.path(of: icon, side: $0) }
        } catch {
            published.diagnostics.append(.error("icon 'content/\(icon)' \(error.message)", at: place))
            return
        }
        if made.wasEncoded { published.encoded += 1 } else { published.reused += 1 }
        let size = made.sourceSize
        if min(size.width, size.height) < Self.iconSideWanted {
            published.diagnostics.append(.warning(
                "icon 'content/\(icon)' is \(size.width)×\(size.height) px, so its \(Self.iconSideWanted) px icon is scaled up and looks soft on a phone; give an image at least \(Self.iconSideWanted) px square",
                at: place))
        }
        for file in made.files { Self.publish(file, into: &published, at: place) }
    }
}
