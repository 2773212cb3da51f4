extension Substring {
    // Public for the engine, which reads environment variables with the same blanks rule as the HAL.
    /// The text without leading and trailing spaces, tabs and line breaks.
    public func trimmingBlanks() -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
