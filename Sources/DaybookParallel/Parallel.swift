import Foundation

/// Maps a list on all cores, keeping its order, so parallel work stays deterministic.
///
/// Items go out in chunks (four per core) so that a slow item does not leave a core idle.
/// Loading, rendering and checking all use this one helper. It lives in its own target because it
/// reads the core count and runs threads, which the pure `DaybookModel` must not.
///
/// Public and `@inlinable`, where the rest of the project is `package`: Swift serializes the
/// bodies of public inlinable declarations only. Unspecialized, these generic loops copied every
/// result (tuples of records) through the runtime's value witnesses, a twentieth of a `serve`
/// rebuild's CPU with the retains they brought.
public enum Parallel {
    @inlinable static func chunkSize(_ count: Int, perCore: Int = 4) -> Int { max(1, (count + cores * perCore - 1) / (cores * perCore)) }

    /// `items` cut into consecutive slices of `size` (the last may be shorter).
    @inlinable static func slices<T>(_ items: [T], of size: Int) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: size).map { items[$0..<min(items.count, $0 + size)] }
    }

    @inlinable public static var cores: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Consecutive runs of `items`, eight per core, for callers that keep state per run (a string
    /// table, a folder listing) and merge it after: few runs to merge, and still enough that a
    /// slow run does not leave a core idle.
    @inlinable public static func runs<T>(of items: [T]) -> [ArraySlice<T>] { slices(items, of: chunkSize(items.count, perCore: 8)) }

    /// For async callers: chunks run as child tasks of a task group.
    @inlinable public static func map<T: Sendable, R: Sendable>(_ items: [T], _ transform: @escaping @Sendable (T) -> R) async -> [R] {
        await runChunks(items, of: chunkSize(items.count)) { $0.map(transform) }
    }

    /// For async callers that keep state across items (a memo): `transform` gets a run of items
    /// and returns one result for each, in order. One run per core, so the state is built as few
    /// times as there are cores.
    @inlinable public static func mapChunks<T: Sendable, R: Sendable>(
        _ items: [T], _ transform: @escaping @Sendable (ArraySlice<T>) -> [R]
    ) async -> [R] {
        await runChunks(items, of: max(1, (items.count + cores - 1) / cores), transform)
    }

    /// Runs `transform` on consecutive slices of `size` items as child tasks, and joins the
    /// results in the items' order.
    @inlinable static func runChunks<T: Sendable, R: Sendable>(
        _ items: [T], of size: Int, _ transform: @escaping @Sendable (ArraySlice<T>) -> [R]
    ) async -> [R] {
        await withTaskGroup(of: (Int, [R]).self) { group in
            for (index, slice) in slices(items, of: size).enumerated() {
                group.addTask { (index, transform(slice)) }
            }
            var parts: [(Int, [R])] = []
            for await part in group { parts.append(part) }
            return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }

    /// For synchronous callers that keep state across items (open folders): `transform` gets a
    /// run of consecutive items, one run per core, and returns one result for each, in order.
    @inlinable public static func mapRuns<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (ArraySlice<T>) -> [R]) -> [R] {
        runBlocking(items, of: max(1, (items.count + cores - 1) / cores), transform)
    }

    /// Three independent computations at once, for synchronous callers (parts of one model that
    /// do not read each other).
    @inlinable public static func all<A: Sendable, B: Sendable, C: Sendable>(
        _ a: @Sendable () -> A, _ b: @Sendable () -> B, _ c: @Sendable () -> C
    ) -> (A, B, C) {
        let first = ParallelSlots<A>(count: 1)
        let second = ParallelSlots<B>(count: 1)
        let third = ParallelSlots<C>(count: 1)
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            switch index {
            case 0: first.set(0, a())
            case 1: second.set(0, b())
            default: third.set(0, c())
            }
        }
        return (first.values[0], second.values[0], third.values[0])
    }

    /// Two independent computations at once. A parallel loop inside either runs on its own
    /// thread only: Dispatch divides a loop's width among the loops it runs inside.
    @inlinable public static func all<A: Sendable, B: Sendable>(_ a: @Sendable () -> A, _ b: @Sendable () -> B) -> (A, B) {
        let first = ParallelSlots<A>(count: 1)
        let second = ParallelSlots<B>(count: 1)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 { first.set(0, a()) } else { second.set(0, b()) }
        }
        return (first.values[0], second.values[0])
    }

    /// For synchronous callers (the pure loaders): chunks run on Dispatch's worker threads.
    @inlinable public static func mapBlocking<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
        runBlocking(items, of: chunkSize(items.count)) { $0.map(transform) }
    }

    /// The same, for items whose costs differ widely (a site's one file of 100,000 comments beside
    /// 6,000 one-post files): those `isCostly` names start first, each on its own, and the rest go
    /// out a few at a time, so that the costliest runs on one core from the start while the
    /// others share the rest. In chunks of a quarter of a core's share, the comments' file began
    /// last as often as not.
    @inlinable public static func mapBlocking<T: Sendable, R: Sendable>(
        _ items: [T], costlyFirst isCostly: (T) -> Bool, _ transform: @Sendable (T) -> R
    ) -> [R] {
        let costly = items.indices.filter { isCostly(items[$0]) }
        guard !costly.isEmpty else { return mapBlocking(items, transform) }
        // Each costly item a work item of its own, then the rest a few at a time: in one slice,
        // a site's comments, posts and prompts files were decoded one after another on one core.
        let rest = items.indices.filter { !isCostly(items[$0]) }
        let parts = costly.map { [$0] } + stride(from: 0, to: rest.count, by: 8).map { Array(rest[$0..<min($0 + 8, rest.count)]) }
        let results = runBlocking(parts, of: 1) { $0.flatMap { part in part.map { transform(items[$0]) } } }
        var placed = [R?](repeating: nil, count: items.count)
        for (result, index) in zip(results, costly + rest) { placed[index] = result }
        return placed.map { $0! }
    }

    /// Runs `transform` on consecutive slices of `size` items on Dispatch's worker threads, and
    /// joins the results in the items' order.
    @inlinable static func runBlocking<T: Sendable, R: Sendable>(
        _ items: [T], of size: Int, _ transform: @Sendable (ArraySlice<T>) -> [R]
    ) -> [R] {
        let parts = slices(items, of: size)
        let slots = ParallelSlots<[R]>(count: parts.count)
        DispatchQueue.concurrentPerform(iterations: parts.count) { index in
            slots.set(index, transform(parts[index]))
        }
        return slots.values.flatMap { $0 }
    }
}
