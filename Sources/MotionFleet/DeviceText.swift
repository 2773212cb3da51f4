import MotionContract

/// Text a device sent (its id from the topic, its info, statuses, health, events and states), made safe to
/// show on an operator's terminal: control, format and line-separator characters (ESC and CSI sequences,
/// OSC titles, CR, a `\n` that would draw a fake row) become `\u{…}` escapes, and a piece is cut at a
/// length that keeps a table readable (`… (N bytes)` says how long it was). Any device can publish in its
/// own subtree, so nothing of it reaches the screen unescaped; the `--json` forms carry the text as sent,
/// escaped by JSON.
public enum DeviceText {
    /// The most UTF-8 bytes of a device id shown (a longer one is cut, not padded into every row).
    public static let idLimit = 64
    /// The most UTF-8 bytes of any other piece of a device's text shown.
    public static let textLimit = 120

    /// A device id as shown.
    public static func id(_ deviceID: some StringProtocol) -> String {
        ContractText.sanitized(deviceID, limit: idLimit)
    }

    /// A piece of a device's text as shown, at most `limit` UTF-8 bytes (``textLimit`` by default).
    public static func text(_ text: some StringProtocol, limit: Int = textLimit) -> String {
        ContractText.sanitized(text, limit: limit)
    }

    /// Text made of trusted and untrusted parts, with every character that could move the cursor or change
    /// the terminal escaped, and nothing cut (the parts were cut where they were made).
    public static func escaped(_ text: some StringProtocol) -> String {
        ContractText.sanitized(text, limit: .max)
    }
}
