/// Where a build is, for a progress line: the phase, and pages done out of the total while
/// rendering (both 0 in phases that do not count pages).
public struct BuildProgress: Sendable, Hashable {
    public var phase: String
    public var done: Int
    public var total: Int

    public init(phase: String, done: Int = 0, total: Int = 0) {
        self.phase = phase
        self.done = done
        self.total = total
    }
}
