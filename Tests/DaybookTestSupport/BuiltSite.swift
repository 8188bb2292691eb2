import DaybookBuild
import Foundation

/// Builds a fixture site once and hands the same built folder to every test that only reads it.
///
/// An actor rather than a semaphore: blocking a thread of the cooperative pool while the build
/// renders on that same pool deadlocks on a 2-core machine.
package actor BuiltSite {
    private let archive: String
    private let now: String
    private var site: SiteFixture?

    package init(_ archive: String, now: String) {
        self.archive = archive
        self.now = now
    }

    package func get() async throws -> SiteFixture {
        if let site { return site }
        let fresh = try SiteFixture(archive)
        _ = await SiteBuilder().build(BuildOptions(siteDirectory: fresh.directory, now: Fixed.at(now)))
        site = fresh
        return fresh
    }
}
