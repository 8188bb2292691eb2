import Foundation

/// Fans reload events out to every open page's event stream.
///
/// A page that connects while the last rebuild has failed gets that failure at once, so its
/// overlay shows; closing the hub ends every stream, which lets the server shut down.
package actor ReloadHub {
    private var subscribers: [Int: AsyncStream<ReloadEvent>.Continuation] = [:]
    private var nextID = 0
    private var lastFailure: ReloadEvent?
    private var closed = false

    package init() {}

    package func subscribe() -> AsyncStream<ReloadEvent> {
        let (stream, continuation) = AsyncStream<ReloadEvent>.makeStream(bufferingPolicy: .bufferingNewest(64))
        if closed {
            continuation.finish()
            return stream
        }
        let id = nextID
        nextID += 1
        subscribers[id] = continuation
        if let lastFailure { continuation.yield(lastFailure) }
        continuation.onTermination = { _ in Task { await self.remove(id) } }
        return stream
    }

    package var subscriberCount: Int { subscribers.count }

    package func publish(_ event: ReloadEvent) {
        switch event {
        case .failed: lastFailure = event
        case .built: lastFailure = nil
        default: break
        }
        for continuation in subscribers.values { continuation.yield(event) }
    }

    package func close() {
        closed = true
        for continuation in subscribers.values { continuation.finish() }
        subscribers = [:]
    }

    private func remove(_ id: Int) { subscribers[id] = nil }
}
