import DaybookParallel
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
}
