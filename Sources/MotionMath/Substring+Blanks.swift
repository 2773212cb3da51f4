extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks: the one blanks rule of every
    /// parser of numbers and names from outside (locations, mount matrices, device strings, commands,
    /// environment variables). Here so that every module can share it.
    public func trimmingBlanks() -> SubSequence {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
