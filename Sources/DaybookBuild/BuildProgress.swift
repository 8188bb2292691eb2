/// Where a build is, for a progress line: the phase, and pages done out of the total while
/// rendering (both 0 in phases that do not count pages).
package struct BuildProgress: Sendable, Hashable {
    package var phase: String
    package var done: Int
    package var total: Int

    package init(phase: String, done: Int = 0, total: Int = 0) {
        self.phase = phase
        self.done = done
        self.total = total
    }
}
