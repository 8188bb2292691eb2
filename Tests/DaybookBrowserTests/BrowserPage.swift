import Foundation

/// One tab of the browser, attached as a flat session: what the tests do to a page and read back.
struct BrowserPage: Sendable {
    let browser: Chromium
    let session: String

    /// Opens a blank tab at `width` × `height` CSS pixels.
    static func open(in browser: Chromium, width: Int = 1280, height: Int = 900) async throws -> BrowserPage {
        let target = try await browser.send("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw BrowserError("Target.createTarget gave no targetId") }
        let attached = try await browser.send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw BrowserError("Target.attachToTarget gave no sessionId") }
        let page = BrowserPage(browser: browser, session: session)
        try await page.send("Page.enable")
        // A headless tab is never the focused window; without this, focus and key events misbehave.
        try await page.send("Emulation.setFocusEmulationEnabled", ["enabled": true])
        try await page.resize(width: width, height: height)
        return page
    }

    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], timeout: Duration = .seconds(10)) async throws -> [String: Any] {
        try await browser.send(method, params, session: session, timeout: timeout)
    }

    /// Sets the viewport, as a phone (`mobile`) below 600 px.
    func resize(width: Int, height: Int) async throws {
        try await send("Emulation.setDeviceMetricsOverride", [
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
        ])
    }

    /// Goes to `url` and waits until that document has loaded.
    func navigate(_ url: String, timeout: Duration = .seconds(10)) async throws {
        let result = try await send("Page.navigate", ["url": url], timeout: timeout)
        if let error = result["errorText"] as? String, !error.isEmpty { throw BrowserError("could not load \(url): \(error)") }
        try await waitUntil("location.href === \(Self.literal(url)) && document.readyState === 'complete'", timeout: timeout, "\(url) to load")
    }

    /// The value of a JavaScript expression; a promise is awaited. Throws the page's exception.
    @discardableResult
    func evaluate(_ expression: String) async throws -> Any? {
        let result = try await send("Runtime.evaluate", ["expression": expression, "awaitPromise": true, "returnByValue": true])
        if let exception = result["exceptionDetails"] as? [String: Any] {
            let text = ((exception["exception"] as? [String: Any])?["description"] as? String) ?? (exception["text"] as? String) ?? "\(exception)"
            throw BrowserError("\(expression) threw: \(text)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    func string(_ expression: String) async throws -> String {
        let value = try await evaluate(expression)
        guard let text = value as? String else { throw BrowserError("\(expression) gave \(value ?? "undefined"), not a string") }
        return text
    }

    func strings(_ expression: String) async throws -> [String] {
        let value = try await evaluate(expression)
        guard let list = value as? [String] else { throw BrowserError("\(expression) gave \(value ?? "undefined"), not a list of strings") }
        return list
    }

    func int(_ expression: String) async throws -> Int? {
        (try await evaluate(expression) as? NSNumber)?.intValue
    }

    func bool(_ expression: String) async throws -> Bool {
        try await evaluate(expression) as? Bool ?? false
    }

    var location: String {
        get async throws { try await string("location.href") }
    }

    /// Polls `condition` (a JavaScript expression) every 25 ms until it is true, or fails after
    /// `timeout` naming `what` it waited for. Errors while a page is replaced count as "not yet".
    func waitUntil(_ condition: String, timeout: Duration = .seconds(5), _ what: String) async throws {
        let deadline = ContinuousClock.now + timeout
        var lastError: (any Error)?
        while true {
            do {
                if try await bool(condition) { return }
                lastError = nil
            } catch {
                lastError = error
            }
            if ContinuousClock.now >= deadline {
                throw BrowserError("waited \(timeout) for \(what); still not true: \(condition)" + (lastError.map { " (\($0))" } ?? ""))
            }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// A real click in the middle of the first element matching `selector`, scrolled into view;
    /// fails if it is hidden or covered, as a reader's click would.
    func click(_ selector: String) async throws {
        let found = try await evaluate("""
            (() => {
              const element = document.querySelector(\(Self.literal(selector)));
              if (!element) return "missing";
              element.scrollIntoView({ block: "center" });
              const box = element.getBoundingClientRect();
              if (box.width === 0 || box.height === 0) return "hidden";
              const x = box.left + box.width / 2, y = box.top + box.height / 2;
              const top = document.elementFromPoint(x, y);
              if (!top || (top !== element && !element.contains(top))) return "covered";
              return [x, y];
            })()
            """)
        guard let point = (found as? [Any])?.compactMap({ ($0 as? NSNumber)?.doubleValue }), point.count == 2 else {
            throw BrowserError("cannot click \(selector): \(found ?? "undefined")")
        }
        for type in ["mousePressed", "mouseReleased"] {
            try await send("Input.dispatchMouseEvent", ["type": type, "x": point[0], "y": point[1], "button": "left", "clickCount": 1])
        }
    }

    /// Types `text` into the focused element, one key at a time.
    func type(_ text: String) async throws {
        for character in text {
            let key = String(character)
            try await send("Input.dispatchKeyEvent", ["type": "keyDown", "key": key, "text": key, "unmodifiedText": key])
            try await send("Input.dispatchKeyEvent", ["type": "keyUp", "key": key])
        }
    }

    /// Presses a named key (`Escape`, `ArrowRight`, …).
    func press(_ key: String) async throws {
        let codes = ["Escape": 27, "Enter": 13, "ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40, "Backspace": 8, "Tab": 9]
        let code = codes[key] ?? 0
        for type in ["rawKeyDown", "keyUp"] {
            try await send("Input.dispatchKeyEvent", ["type": type, "key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code])
        }
    }

    /// A PNG of the whole page at `width` CSS pixels (its height is the page's, up to 6,000 px).
    func screenshot(width: Int, to file: URL) async throws {
        try await resize(width: width, height: 800)
        let height = (try await evaluate("Math.ceil(document.documentElement.scrollHeight)") as? NSNumber)?.intValue ?? 800
        try await resize(width: width, height: min(max(height, 1), 6000))
        let shot = try await send("Page.captureScreenshot", ["format": "png"], timeout: .seconds(20))
        guard let base64 = shot["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw BrowserError("Page.captureScreenshot gave no image")
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// `text` as a JavaScript string literal.
    static func literal(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        let array = data.flatMap { String(data: $0, encoding: .utf8) } ?? "[\"\"]"
        return String(array.dropFirst().dropLast())
    }
}

/// Runs `body` with a fresh browser and one open tab, and always quits the browser after.
func withBrowser<Result>(width: Int = 1280, height: Int = 900, _ body: (BrowserPage) async throws -> Result) async throws -> Result {
    let browser = try Chromium.launch()
    do {
        let page = try await BrowserPage.open(in: browser, width: width, height: height)
        let result = try await body(page)
        await browser.close()
        return result
    } catch {
        await browser.close()
        throw error
    }
}
