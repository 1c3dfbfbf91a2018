extension StringProtocol {
    /// The text without the white space (blanks, tabs, line ends) at either end.
    package var trimmed: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
