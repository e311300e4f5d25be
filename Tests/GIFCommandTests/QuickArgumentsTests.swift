import ArgumentParser
@testable import GIFCommand
import Testing

/// `gif dump`'s command lines that skip ArgumentParser: every one the quick
/// parser takes must mean what ArgumentParser makes of it, and every line
/// ArgumentParser refuses (or answers with help) must be left to it.
@Suite struct QuickArgumentsTests {
    /// What ArgumentParser makes of `arguments`: the dump request, or `nil`
    /// when it refuses them or they are not a dump.
    static func parsedByArgumentParser(_ arguments: [String]) -> DumpRequest? {
        guard let command = try? GIFTool.parseAsRoot(arguments), let dump = command as? GIFTool.Dump else {
            return nil
        }
        return dump.request
    }

    @Test("Plain dump lines mean the same to both parsers", arguments: [
        ["dump", "cat.gif"],
        ["dump", "cat.gif", "-o", "-"],
        ["dump", "-", "-o", "frames"],
        ["dump", "cat.gif", "--format", "nia", "-o", "-"],
        ["dump", "--format=nia", "cat.gif", "--output=-"],
        ["dump", "-o", "out", "cat.gif", "--format", "pam", "--frames", "0,3,5-9"],
        ["dump", "cat.gif", "--frames", "0", "--background", "000000", "-o", "-"],
        ["dump", "cat.gif", "--background", "#12abEF"],
        ["dump", "cat.gif", "--frames", "2", "--max-size", "128", "-o", "poster"],
        ["dump", "cat.gif", "--max-size", "+7"],
        ["dump", "cat.gif", "--format", "png", "--frames", "0", "-o", "-"],
    ])
    func plainLines(_ arguments: [String]) throws {
        let quick = try #require(DumpRequest(quickArguments: arguments))
        #expect(quick == Self.parsedByArgumentParser(arguments))
    }

    @Test("Everything else is left to ArgumentParser", arguments: [
        // Not a dump, help, or no file.
        ["info", "cat.gif"], ["dump"], ["dump", "--help"], ["dump", "-h"], ["dump", "cat.gif", "--help"],
        // Refused by ArgumentParser: unknown options, bad values, two files, a missing value.
        ["dump", "cat.gif", "--bogus"], ["dump", "cat.gif", "--format", "jpeg"], ["dump", "a.gif", "b.gif"],
        ["dump", "cat.gif", "-o"], ["dump", "cat.gif", "--frames", "3-1"], ["dump", "cat.gif", "--max-size", "x"],
        ["dump", "cat.gif", "--background", "fff"],
        // Options that do not go together (the command's own validation).
        ["dump", "cat.gif", "--format", "nia", "--frames", "0"], ["dump", "cat.gif", "--max-size", "0"],
        ["dump", "cat.gif", "--format", "nia", "--max-size", "9"],
        ["dump", "cat.gif", "--format", "pam", "--background", "000000"],
        // Spellings the quick parser does not try to match: repeats, a value
        // or file starting with "-", the "--" terminator, joined short options.
        ["dump", "cat.gif", "-o", "a", "-o", "b"], ["dump", "cat.gif", "--max-size", "-3"],
        ["dump", "--", "-odd.gif"], ["dump", "cat.gif", "-oframes"],
    ])
    func otherLines(_ arguments: [String]) {
        #expect(DumpRequest(quickArguments: arguments) == nil)
    }

    @Test("Lines ArgumentParser refuses are among those left to it")
    func refusedLinesAreLeft() {
        let refused = [
            ["dump"], ["dump", "cat.gif", "--bogus"], ["dump", "cat.gif", "--format", "jpeg"],
            ["dump", "a.gif", "b.gif"], ["dump", "cat.gif", "-o"], ["dump", "cat.gif", "--max-size", "0"],
            ["dump", "cat.gif", "--format", "nia", "--frames", "0"],
        ]
        for arguments in refused {
            #expect(Self.parsedByArgumentParser(arguments) == nil, "ArgumentParser took \(arguments)")
            #expect(DumpRequest(quickArguments: arguments) == nil)
        }
    }
}
