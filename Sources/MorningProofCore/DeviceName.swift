/// A sign-in's device in a person's words ("Safari on iPhone"), read from the User-Agent that
/// signed in, so that a list of sessions says which one is which.
public enum DeviceName {
    /// The longest User-Agent read; the rest is ignored.
    static let readLimit = 512

    /// "Browser on system", "Browser", "system", or nil when the User-Agent names neither (or is absent).
    public static func from(userAgent: String?) -> String? {
        guard let userAgent, !userAgent.isEmpty else { return nil }
        let text = String(userAgent.prefix(readLimit))
        let browser = browser(in: text)
        let system = system(in: text)
        switch (browser, system) {
        case (let browser?, let system?): return "\(browser) on \(system)"
        case (let browser?, nil): return browser
        case (nil, let system?): return system
        case (nil, nil): return nil
        }
    }

    /// The browser or client, checked in an order where a browser that also names another's
    /// token (Edge names "Chrome" and "Safari", Chrome names "Safari") is found first.
    static func browser(in text: String) -> String? {
        let rules: [(token: String, name: String)] = [
            ("Edg/", "Edge"), ("EdgiOS/", "Edge"), ("EdgA/", "Edge"), ("OPR/", "Opera"),
            ("SamsungBrowser/", "Samsung Internet"),
            ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"), ("CriOS/", "Chrome"), ("Chromium/", "Chromium"),
            ("HeadlessChrome/", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"), ("curl/", "curl"),
            ("Wget/", "Wget"), ("python-requests/", "Python"), ("Python-urllib/", "Python"),
            ("morningproof/", "MorningProof"),
        ]
        return rules.first { text.contains($0.token) }?.name
    }

    /// The operating system or device: phones and tablets by their own name.
    static func system(in text: String) -> String? {
        let rules: [(token: String, name: String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"),
            ("Windows", "Windows"), ("Macintosh", "Mac"), ("Mac OS X", "Mac"), ("Linux", "Linux"),
        ]
        return rules.first { text.contains($0.token) }?.name
    }
}
