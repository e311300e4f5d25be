import MallocInterposerSwift

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This process's memory and allocation counters, and running a copy of it.
enum ProcessProbe {
    /// Runs `body` with malloc counting on (every thread) and returns its
    /// result and the allocations made meanwhile: `malloc`, `calloc`,
    /// `realloc` and the aligned variants, as MallocInterposerSwift counts.
    static func countingMallocs<T>(_ body: () async throws -> T) async rethrows -> (result: T, mallocs: Int) {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        let result = try await body()
        MallocInterposerSwift.unhook()
        return (result, MallocInterposerSwift.getStatistics().mallocCount)
    }

    /// Whether the interposer sees this process's allocations: counts 1,000
    /// small arrays made one by one and returns the count (≈ 1,000 when it
    /// works, 0 when the library is linked but not interposing).
    static func mallocCountCheck() async -> Int {
        MallocInterposerSwift.initialize()
        var sink = 0
        let (_, mallocs) = await countingMallocs {
            for i in 0..<1000 {
                let array = [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: 64 + i % 7)
                sink &+= Int(array[array.count / 2])
            }
        }
        return sink >= 0 ? mallocs : 0
    }

    /// The interposer's shared library, next to this executable: what to
    /// preload if linking it in does not interpose `malloc`.
    static var interposerLibraryPath: String { sibling("libMallocInterposerSwift.so") }

    /// Runs this executable again (`/proc/self/exe`) with `arguments`, its
    /// standard output captured, standard error passed through.
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - preload: A library to run it with in `LD_PRELOAD`, if any.
    /// - Returns: The exit status and everything written to standard output.
    static func runSelf(_ arguments: [String], preload: String? = nil) -> (status: Int32, output: String) {
        run("/proc/self/exe", arguments, preload: preload)
    }

    /// The executable `name` beside this one (the products of one build
    /// share a directory).
    static func sibling(_ name: String) -> String {
        var parts = (realpath("/proc/self/exe", nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? CommandLine.arguments[0]).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/" + name
    }

    /// Runs the executable at `path` with `arguments`, its standard output
    /// captured, standard error passed through.
    static func run(_ path: String, _ arguments: [String], preload: String? = nil) -> (status: Int32, output: String) {
        #if os(Linux)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return (-1, "") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])

        let argv: [UnsafeMutablePointer<CChar>?] = ([CommandLine.arguments[0]] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = []
        var entry = environ
        while let variable = entry.pointee {
            environment.append(strdup(variable))
            entry += 1
        }
        if let preload { environment.append(strdup("LD_PRELOAD=" + preload)) }
        environment.append(nil)
        defer { for pointer in environment { free(pointer) } }
        var child = pid_t()
        let spawned = posix_spawn(&child, path, &actions, nil, argv, environment)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned == 0 else { return (-1, "") }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipeEnds[0], &chunk, chunk.count)
            if count <= 0 { break }
            output += chunk[0..<count]
        }
        var status: Int32 = 0
        waitpid(child, &status, 0)
        let exited = (status & 0x7f) == 0
        return (exited ? (status >> 8) & 0xff : -1, String(decoding: output, as: UTF8.self))
        #else
        return (-1, "")  // /proc/self/exe and VmHWM are Linux's.
        #endif
    }
}
