import DaybookTestSupport
import Foundation
import Testing

extension BrowserTests {
    /// What axe-core cannot check (issue 41), by hand: where focus goes in the preview dialog and
    /// after "load more", what the search's live region says, and that nothing moves when the
    /// reader asks for reduced motion.
    @Suite("Keyboard and motion")
    struct KeyboardAndMotion {
        static let now = "2026-11-21T12:00:00Z"

        /// Two pages of posts three to a page, photos on Ana's profile (one sensitive, one whose
        /// caption links a hashtag and a person), `harbour` in six results, and a journal entry
        /// whose prompt is missing: a skeleton, the one thing the theme animates.
        static let archive = """
            -- site.yml --
            title: Motion
            baseURL: https://example.org/
            timeZone: UTC
            pageSize: 3
            -- content/users.json --
            [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}]
            -- content/posts.json --
            [
              {"id": "p5", "author": "ana", "createdAt": "2026-11-20T08:00:00Z", "caption": "Harbour at dawn #sea with @ben", "image": "images/a.png"},
              {"id": "p4", "author": "ana", "createdAt": "2026-11-19T08:00:00Z", "caption": "Harbour wall", "image": "images/b.png"},
              {"id": "p3", "author": "ana", "createdAt": "2026-11-18T08:00:00Z", "caption": "Behind a veil at the harbour", "image": "images/c.png", "sensitive": "Reason text"},
              {"id": "p2", "author": "ben", "createdAt": "2026-11-17T08:00:00Z", "caption": "Harbour lights #sea"},
              {"id": "p1", "author": "ben", "createdAt": "2026-11-16T08:00:00Z", "caption": "First light on the harbour"}
            ]
            -- content/prompts.json --
            [{"id": "q1", "title": "What did you see?", "body": "Write about the *harbour*."}]
            -- content/sent-prompts.json --
            [{"id": "s1", "promptId": "q1", "sentAt": "2026-11-19T07:00:00Z"}, {"id": "s2", "promptId": "gone", "sentAt": "2026-11-20T07:00:00Z"}]
            """

        /// The fixture with its three photos, served, in a fresh browser.
        static func withSite(language: SiteLanguage, _ body: (LoopbackSite, BrowserPage) async throws -> Void) async throws {
            let fixture = try SiteFixture(language.site(archive))
            for (name, rgb) in [("a", (200, 60, 60)), ("b", (60, 200, 60)), ("c", (60, 60, 200))] as [(String, (UInt8, UInt8, UInt8))] {
                try fixture.write("content/images/\(name).png", bytes: TestPNG.make(width: 600, height: 400, rgb: rgb))
            }
            let served = try await LoopbackSite.start(fixture, now: now)
            defer { try? FileManager.default.removeItem(at: fixture.directory) }
            do {
                try await withBrowser { page in try await body(served, page) }
                await served.stop()
            } catch {
                await served.stop()
                throw error
            }
        }

        /// Presses Tab, or Shift+Tab with `shift`. (`BrowserPage.press` sends no modifiers.)
        static func tab(_ page: BrowserPage, shift: Bool = false) async throws {
            for type in ["rawKeyDown", "keyUp"] {
                try await page.send("Input.dispatchKeyEvent", [
                    "type": type, "key": "Tab", "code": "Tab", "windowsVirtualKeyCode": 9, "nativeVirtualKeyCode": 9, "modifiers": shift ? 8 : 0,
                ])
            }
        }

        /// Presses Enter as a keyboard does, with the character: what activates a focused button.
        static func enter(_ page: BrowserPage) async throws {
            try await page.send("Input.dispatchKeyEvent", [
                "type": "keyDown", "key": "Enter", "code": "Enter", "text": "\r", "unmodifiedText": "\r", "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13,
            ])
            try await page.send("Input.dispatchKeyEvent", ["type": "keyUp", "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13])
        }

        // MARK: The preview's focus trap

        static let dialogOpen = "!!document.querySelector('dialog[data-preview]')?.open"

        /// Where focus is, said shortly: `close`, `open` (the "Open post" link), `summary`, a
        /// caption link's `href`, `DIALOG` for the dialog itself, or `outside: TAG` when it is not
        /// in the dialog.
        static let inDialog = """
            (e => { const d = document.querySelector('dialog[data-preview]');
              if (!e || !d.contains(e)) return 'outside: ' + (e ? e.tagName : 'none');
              if (e.classList.contains('preview-close')) return 'close';
              if (e.classList.contains('preview-open')) return 'open';
              return e.tagName === 'SUMMARY' ? 'summary' : (e.getAttribute('href') || e.tagName); })(document.activeElement)
            """

        /// Presses Tab (or Shift+Tab) `times` times and says where focus was after each.
        static func tabs(_ times: Int, shift: Bool = false, _ page: BrowserPage) async throws -> [String] {
            var stops: [String] = []
            for _ in 0..<times {
                try await tab(page, shift: shift)
                stops.append(try await page.string(inDialog))
            }
            return stops
        }

        @Test("with the preview open, Tab and Shift+Tab go round the dialog's controls in order and never leave it, also after a click on the caption or a step away from a focused caption link; Escape returns focus to the link clicked",
            arguments: SiteLanguage.both)
        func previewFocusTrap(language: SiteLanguage) async throws {
            try await Self.withSite(language: language) { site, page in
                try await page.navigate(site.url("users/ana/"))
                try await page.click("a[data-preview][href='/posts/p5/']")
                try await page.waitUntil(Self.dialogOpen, "the preview to open")
                // showModal() puts focus on the first control: the close button.
                #expect(try await page.string(Self.inDialog) == "close")
                // The caption's hashtag and person are links: four stops, each way round twice.
                let round = ["close", "/tags/sea/", "/users/ben/", "open"]
                #expect(try await Self.tabs(8, page) == Array(round.dropFirst() + round + round.prefix(1)))
                #expect(try await Self.tabs(8, shift: true, page) == Array(round.reversed() + round.reversed()))

                // Stepping on from a caption link, which goes with its post: focus stays in the
                // dialog, on the dialog itself, not on <body>.
                #expect(try await Self.tabs(1, page) == ["/tags/sea/"])
                try await page.press(language.forward)
                try await page.waitUntil("location.href.endsWith('/posts/p4/')", "the older post")
                #expect(try await page.string(Self.inDialog) == "DIALOG")
                // This post's caption has no link: two stops.
                #expect(try await Self.tabs(4, page) == ["close", "open", "close", "open"])
                #expect(try await Self.tabs(4, shift: true, page) == ["close", "open", "close", "open"])
                // A click on the caption puts focus on the dialog: Tab and Shift+Tab still stay in.
                try await page.click("dialog[data-preview] .preview-caption")
                #expect(try await page.string(Self.inDialog) == "DIALOG")
                #expect(try await Self.tabs(3, page) == ["close", "open", "close"])
                try await page.click("dialog[data-preview] .preview-caption")
                #expect(try await Self.tabs(3, shift: true, page) == ["open", "close", "open"])

                // A sensitive post's photo is behind a summary, a stop of its own. (Focus is on
                // "Open post", where the last Shift+Tab left it.)
                try await page.press(language.forward)
                try await page.waitUntil("location.href.endsWith('/posts/p3/')", "the sensitive post")
                #expect(try await Self.tabs(6, page) == ["close", "summary", "open", "close", "summary", "open"])
                #expect(try await Self.tabs(6, shift: true, page) == ["summary", "close", "open", "summary", "close", "open"])
                // The summary goes with its post too; the arrows still work from the dialog.
                #expect(try await Self.tabs(1, shift: true, page) == ["summary"])
                try await page.press(language.backward)
                try await page.waitUntil("location.href.endsWith('/posts/p4/')", "the newer post")
                #expect(try await page.string(Self.inDialog) == "DIALOG")
                try await page.press(language.backward)
                try await page.waitUntil("location.href.endsWith('/posts/p5/')", "the newest post")

                try await page.press("Escape")
                try await page.waitUntil("!(\(Self.dialogOpen)) && location.href === \(BrowserPage.literal(site.url("users/ana/")))", "Escape to close")
                #expect(try await page.string("document.activeElement.getAttribute('href')") == "/posts/p5/")
            }
        }

        // MARK: Load more

        static let shownIDs = "[...document.querySelectorAll('[data-id]')].map(e => e.dataset.id)"
        /// The focused element's `data-id` when it is an item (`inside ID` when it is in one), else its tag.
        static let focusedItem = """
            (e => e.matches('[data-id]') ? e.dataset.id : e.closest('[data-id]') ? 'inside ' + e.closest('[data-id]').dataset.id : e.tagName)(document.activeElement)
            """
        /// Whether the focused element is wholly in the viewport.
        static let focusedInView = "(b => b.top >= 0 && b.bottom <= innerHeight)(document.activeElement.getBoundingClientRect())"

        /// Waits until a load started from `before` is done: appended, the address moved on.
        static func loaded(from before: String, _ page: BrowserPage) async throws {
            try await page.waitUntil(
                "location.href !== \(BrowserPage.literal(before)) && !document.querySelector('button[data-load-more][aria-busy]')", "the next page to be appended")
        }

        @Test("load more moves focus to the first item it appended, in view, by keyboard and by mouse; at the end the button is gone and focus is on an item, not lost",
            arguments: SiteLanguage.both)
        func loadMoreFocus(language: SiteLanguage) async throws {
            try await withServedSite(language.site(BrowserSite.archive), now: BrowserSite.now) { site, page in
                try await page.navigate(site.url("timeline/"))
                #expect(try await page.strings(Self.shownIDs) == ["p8", "p7", "p6"])
                // By keyboard: focus on the button, Enter.
                _ = try await page.evaluate("document.querySelector('button[data-load-more]').focus()")
                try await Self.enter(page)
                try await Self.loaded(from: site.url("timeline/"), page)
                #expect(try await page.strings(Self.shownIDs) == ["p8", "p7", "p6", "p5", "p4", "p3"])
                #expect(try await page.string(Self.focusedItem) == "p5")
                #expect(try await page.bool(Self.focusedInView))
                // Focus shows, as on a link: the theme's ring after a key press.
                #expect(try await page.bool("document.activeElement.matches(':focus-visible') && getComputedStyle(document.activeElement).outlineStyle === 'solid'"))
                // The next Tab goes on into that item, not back to the top of the page.
                try await Self.tab(page)
                #expect(try await page.string(Self.focusedItem) == "inside p5")

                // By mouse, the last page: the button goes, focus is on its first item.
                try await page.click("button[data-load-more]")
                try await Self.loaded(from: site.url("timeline/page/2/"), page)
                #expect(try await page.strings(Self.shownIDs) == ["p8", "p7", "p6", "p5", "p4", "p3", "p2", "p1"])
                #expect(try await page.int("document.querySelectorAll('button[data-load-more]').length") == 0)
                #expect(try await page.string(Self.focusedItem) == "p2")
                #expect(try await page.bool(Self.focusedInView))
            }
        }

        @Test("a load that fails leaves focus on the button, which says so, and a status says it aloud; a try after it works and moves focus on", arguments: SiteLanguage.both)
        func loadMoreFailure(language: SiteLanguage) async throws {
            try await withServedSite(language.site(BrowserSite.archive), now: BrowserSite.now) { site, page in
                let timeline = site.url("timeline/")
                try await page.navigate(timeline)
                let button = "document.querySelector('button[data-load-more]')"
                let next = try await page.string("\(button).getAttribute('data-next')")
                // The next page is gone (a 404), as when the site was rebuilt with fewer pages.
                _ = try await page.evaluate("\(button).setAttribute('data-next', 'nowhere/')")
                let failed = BrowserPage.literal(language.text("loadMoreFailed"))
                for press in ["mouse", "Enter"] {
                    _ = try await page.evaluate("\(button).textContent = 'Load'")
                    if press == "mouse" { try await page.click("button[data-load-more]") } else { try await Self.enter(page) }
                    try await page.waitUntil("\(button).textContent === \(failed) && !\(button).hasAttribute('aria-busy')", "the load to fail (\(press))")
                    #expect(try await page.bool("document.activeElement === \(button)"), "focus after a failed load (\(press))")
                    // Said in a polite live region too, which the button's new label may not be.
                    #expect(try await page.string("[...document.querySelectorAll('[role=status]')].map(s => s.textContent).join('|')") == language.text("loadMoreFailed"))
                    #expect(try await page.strings(Self.shownIDs) == ["p8", "p7", "p6"])
                    #expect(try await page.location == timeline)
                }
                _ = try await page.evaluate("\(button).setAttribute('data-next', \(BrowserPage.literal(next)))")
                try await Self.enter(page)
                try await Self.loaded(from: timeline, page)
                #expect(try await page.string(Self.focusedItem) == "p5")
            }
        }

        // MARK: Search's live region

        /// Records what `#search-status` says each time it changes, with how many results the
        /// list holds at that moment: `TEXT|COUNT`, in `window.heard`.
        static let listen = """
            window.heard = [];
            new MutationObserver(() => heard.push(document.getElementById('search-status').textContent + '|' +
              document.querySelectorAll('#search-results a').length))
              .observe(document.getElementById('search-status'), { childList: true, characterData: true, subtree: true });
            undefined
            """

        /// Searches `query` with the form's button, and waits until the search has said its last word.
        static func submit(_ query: String, _ page: BrowserPage, until said: String) async throws {
            _ = try await page.evaluate("document.getElementById('search-query').value = \(BrowserPage.literal(query))")
            try await page.click(".search-form button[type=submit]")
            try await page.waitUntil("document.getElementById('search-status').textContent === \(BrowserPage.literal(said))", "the search for \(query) to say \(said)")
        }

        @Test("search says what it found in its polite live region once the results are in the list: the count, more below, no results, a failed index; the results are not a live region",
            arguments: SiteLanguage.both)
        func searchAnnouncements(language: SiteLanguage) async throws {
            try await Self.withSite(language: language) { site, page in
                try await page.navigate(site.url("search/"))
                let status = "document.getElementById('search-status')"
                #expect(try await page.string("\(status).getAttribute('role') + ' ' + \(status).getAttribute('aria-live')") == "status polite")
                #expect(try await page.string("\(status).textContent") == "")
                // Nothing around or in the results is live: they are not read out with the status.
                let live = """
                    [...document.querySelectorAll('#search-results, #search-results *')].concat((() => { const up = []; for (let e = document.getElementById('search-results').parentElement; e; e = e.parentElement) up.push(e); return up; })())
                      .filter(e => e.hasAttribute('aria-live') || /^(status|log|alert|marquee|timer)$/.test(e.getAttribute('role') || '')).map(e => e.tagName + '#' + e.id)
                    """
                #expect(try await page.strings(live) == [])
                #expect(try await page.bool("!\(status).contains(document.getElementById('search-results')) && !\(status).hidden"))

                try await page.evaluate(Self.listen)
                let searching = language.text("searching")
                try await Self.submit("harbour ", page, until: language.count("showingResults", 4))
                #expect(try await page.strings("heard") == ["\(searching)|0", "\(language.count("showingResults", 4))|4"])
                #expect(try await page.strings(live) == [])
                try await page.click("#search-more")
                try await page.waitUntil("\(status).textContent === \(BrowserPage.literal(language.count("resultCount", 6)))", "all six")
                #expect(try await page.strings("heard").dropFirst(2) == ["\(language.count("resultCount", 6))|6"])

                _ = try await page.evaluate("heard.length = 0")
                try await Self.submit("zebra ", page, until: language.text("noResults"))
                #expect(try await page.strings("heard") == ["\(searching)|0", "\(language.text("noResults"))|0"])

                // The index cannot be fetched (offline): a page that has fetched none of it yet.
                try await page.navigate(site.url("search/"))
                try await page.evaluate(Self.listen)
                _ = try await page.evaluate("""
                    (real => { window.offline = true; window.fetch = function (input, init) {
                      return window.offline && String(input).includes('/search/') ? Promise.reject(new TypeError('Failed to fetch')) : real.call(this, input, init); }; })(window.fetch)
                    """)
                try await Self.submit("harbour ", page, until: language.text("searchFailed"))
                #expect(try await page.strings("heard") == ["\(searching)|0", "\(language.text("searchFailed"))|0"])
                // Back online, the next search fetches what failed and finds: a failure is not kept.
                _ = try await page.evaluate("window.offline = false")
                try await Self.submit("harbour  ", page, until: language.count("showingResults", 4))
            }
        }

        // MARK: Reduced motion

        /// Every element (and its ::before, ::after, a dialog's ::backdrop) whose computed style
        /// animates, transitions or scrolls smoothly, and every animation running in the document.
        static let motion = """
            (() => {
              const found = [];
              const seconds = list => list.split(',').map(s => parseFloat(s) * (s.trim().endsWith('ms') ? 0.001 : 1)).filter(n => n > 0);
              const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
              for (const element of document.querySelectorAll('*')) {
                for (const pseudo of [null, '::before', '::after'].concat(element.tagName === 'DIALOG' ? ['::backdrop'] : [])) {
                  const style = getComputedStyle(element, pseudo), what = name(element) + (pseudo || '');
                  if (style.animationName !== 'none' && seconds(style.animationDuration).length) found.push(what + ' animation ' + style.animationName + ' ' + style.animationDuration);
                  if (seconds(style.transitionDuration).length) found.push(what + ' transition ' + style.transitionProperty + ' ' + style.transitionDuration);
                  if (style.scrollBehavior === 'smooth') found.push(what + ' scroll-behavior smooth');
                }
              }
              for (const animation of document.getAnimations()) {
                if (animation.playState === 'running') found.push('running ' + (animation.animationName || animation.transitionProperty || 'animation') + ' on ' + name(animation.effect.target));
              }
              return found;
            })()
            """

        /// Added to every document before its scripts: records each scroll asked to be smooth.
        static let watchScrolls = """
            window.smoothScrolls = [];
            for (const [target, names] of [[Element.prototype, ['scrollIntoView', 'scrollTo', 'scrollBy', 'scroll']], [window, ['scrollTo', 'scrollBy', 'scroll']]]) {
              for (const name of names) {
                const real = target[name];
                target[name] = function (...args) {
                  if (args[0] && typeof args[0] === 'object' && args[0].behavior === 'smooth') window.smoothScrolls.push(name);
                  return real.apply(this, args);
                };
              }
            }
            """

        @Test("with prefers-reduced-motion: reduce nothing animates, transitions or scrolls smoothly: home, journal, timeline and load more, a post, search and more results, the preview; without it the skeleton shimmers",
            arguments: SiteLanguage.both)
        func reducedMotion(language: SiteLanguage) async throws {
            try await Self.withSite(language: language) { site, page in
                _ = try await page.send("Page.addScriptToEvaluateOnNewDocument", ["source": Self.watchScrolls])
                // Without the preference, the check finds the shimmer: it can fail.
                try await page.navigate(site.url(""))
                #expect(try await page.int("document.querySelectorAll('[data-skeleton] .skeleton-lines span').length") == 3)
                let moving = try await page.strings(Self.motion)
                #expect(moving.count == 6 && moving.allSatisfy { $0.contains("shimmer") }, "\(moving)")
                // The shimmer runs the way the text reads.
                #expect(try await page.string("getComputedStyle(document.querySelector('.skeleton-lines span')).animationDirection") == (language.isRightToLeft ? "reverse" : "normal"))

                _ = try await page.send("Emulation.setEmulatedMedia", ["features": [["name": "prefers-reduced-motion", "value": "reduce"]]])
                #expect(try await page.bool("matchMedia('(prefers-reduced-motion: reduce)').matches"))
                func still(_ what: String) async throws {
                    #expect(try await page.strings(Self.motion) == [], "\(what)")
                    #expect(try await page.strings("smoothScrolls") == [], "\(what)")
                }
                for path in ["", "journal/", "timeline/", "posts/p5/"] {
                    try await page.navigate(site.url(path))
                    try await still("/\(path)")
                }
                try await page.navigate(site.url(""))
                #expect(try await page.string("getComputedStyle(document.querySelector('.skeleton-lines span')).animationName") == "none")

                try await page.navigate(site.url("timeline/"))
                try await page.click("button[data-load-more]")
                try await Self.loaded(from: site.url("timeline/"), page)
                try await still("timeline after load more")

                try await page.navigate(site.url("search/?q=harbour+"))
                try await page.waitUntil("document.getElementById('search-status').textContent === \(BrowserPage.literal(language.count("showingResults", 4)))", "results")
                try await still("search")
                try await page.click("#search-more")
                try await page.waitUntil("document.querySelectorAll('#search-results a').length === 6", "more results")
                try await still("search, more results")

                try await page.navigate(site.url("users/ana/"))
                try await page.click("a[data-preview]")
                try await page.waitUntil(Self.dialogOpen, "the preview to open")
                try await still("the preview")
                try await page.press(language.forward)
                try await page.waitUntil("location.href.endsWith('/posts/p4/')", "the older post")
                try await still("the preview, the next post")
            }
        }
    }
}
