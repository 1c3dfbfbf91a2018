extension String {
    /// The string with zeros in front up to `width` characters: hex bytes, USB bus and
    /// device numbers as udev names their nodes, hundredths of a second.
    package func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
