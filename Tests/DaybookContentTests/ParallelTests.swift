import DaybookParallel
import Foundation
import Synchronization
import Testing

/// The helper loading maps files with: results in the items' order, however they were scheduled.
@Suite("Parallel maps")
struct ParallelTests {
    @Test("costly items first: each item mapped once, the results in the items' order", arguments: [0, 1, 3, 40])
    func costlyFirst(costly: Int) {
        let items = Array(0..<1_000)
        let isCostly = { (item: Int) in item % 997 < costly && item % 2 == 1 }
        let calls = Mutex([Int: Int]())
        let results = Parallel.mapBlocking(items, costlyFirst: isCostly) { item -> String in
            calls.withLock { $0[item, default: 0] += 1 }
            return "item \(item)"
        }
        #expect(results == items.map { "item \($0)" })
        #expect(calls.withLock { $0 } == Dictionary(uniqueKeysWithValues: items.map { ($0, 1) }))
    }

    @Test("costly items start side by side, each on its own, not one after another in one slice")
    func costlyApart() {
        // Needs two cores, which the machines Daybook runs on have; one core runs one at a time.
        guard Parallel.cores >= 2 else { return }
        let started = Mutex(Set<Int>())
        // Each costly item waits (5 s at most) for the other to start: run one after the other on
        // one thread, the first never sees the second.
        let sawOther = Parallel.mapBlocking(Array(0..<100), costlyFirst: { $0 < 2 }) { item -> Bool in
            guard item < 2 else { return true }
            started.withLock { _ = $0.insert(item) }
            let deadline = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < deadline {
                if started.withLock({ $0.contains(1 - item) }) { return true }
                Thread.sleep(forTimeInterval: 0.0001)
            }
            return false
        }
        #expect(sawOther[0] && sawOther[1])
    }
}
