/// Lets the global options stand before the subcommand (`fpbridge --json verify`),
/// as scripts write them, by moving them after it, where swift-argument-parser reads them.
enum GlobalArguments {
    // Arrays, not sets: a Set's metadata is built at start with a runtime conformance lookup.
    static let withValue = ["--reader", "--state-dir", "--user", "--service"]
    static let flags = ["--json", "--verbose", "-v"]

    static func normalize(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if flags.contains(argument) || (withValue.contains(name) && argument.contains("=")) {
                leading.append(argument)
                index += 1
            } else if withValue.contains(argument), index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        return Array(arguments[index...]) + leading
    }
}
