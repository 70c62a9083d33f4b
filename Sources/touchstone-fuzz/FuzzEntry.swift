import Foundation
import TouchstoneFuzzing

#if TOUCHSTONE_FUZZ
// Built by `scripts/fuzz` with `-sanitize=fuzzer,address`: libFuzzer provides `main` and calls these.

nonisolated(unsafe) private var target = FuzzTarget.cbor

/// Chooses the target from `TOUCHSTONE_FUZZ_TARGET`, once, before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _: UnsafeMutablePointer<CInt>, _: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    guard let name = ProcessInfo.processInfo.environment["TOUCHSTONE_FUZZ_TARGET"],
        let chosen = FuzzTarget(rawValue: name)
    else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("TOUCHSTONE_FUZZ_TARGET must be one of: \(names)\n".utf8))
        exit(2)
    }
    target = chosen
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        try target.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    } catch {
        FileHandle.standardError.write(Data("\(target.rawValue): the harness cannot be set up: \(error)\n".utf8))
        exit(2)
    }
    return 0
}
#else
/// Without libFuzzer, in an ordinary build:
/// - `touchstone-fuzz TARGET PATH...` runs each file (or each file in each directory) through the target once, to
///   replay a crash or a corpus;
/// - `touchstone-fuzz TARGET --mutate SECONDS [--seed N] PATH...` does that, then runs mutations of those files
///   (``SeedMutator``) for SECONDS: the smoke run of `scripts/test`. The seed it prints replays the same inputs.
@main
struct Replay {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else { usage() }
        arguments.removeFirst()
        var seconds: Double?
        var seed = UInt64.random(in: .min ... .max)
        while let option = arguments.first, option.hasPrefix("--") {
            guard arguments.count >= 2 else { usage() }
            switch option {
            case "--mutate":
                guard let value = Double(arguments[1]), value > 0 else { usage() }
                seconds = value
            case "--seed":
                guard let value = UInt64(arguments[1]) else { usage() }
                seed = value
            default: usage()
            }
            arguments.removeFirst(2)
        }
        var inputs: [[UInt8]] = []
        for path in arguments {
            for file in try files(at: path) {
                let input = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
                try target.run(input)
                inputs.append(input)
            }
        }
        guard let seconds else {
            say("\(target.rawValue): \(inputs.count) inputs, none crashed")
            return
        }
        say("\(target.rawValue): \(inputs.count) seeds, none crashed; mutating them for \(seconds) s (--seed \(seed))")
        var mutator = SeedMutator(seeds: inputs, seed: seed)
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(seconds * 1000))
        var count = 0
        while clock.now < deadline {
            for _ in 0..<64 {
                try target.run(mutator.next())
            }
            count += 64
        }
        say("\(target.rawValue): \(count) mutated inputs, none crashed")
    }

    /// A line written at once (not buffered): the seed is out before any crash, and it is what replays it.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func usage() -> Never {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " | ")
        say("usage: touchstone-fuzz (\(names)) [--mutate SECONDS [--seed N]] PATH...")
        exit(2)
    }

    private static func files(at path: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        guard isDirectory.boolValue else { return [path] }
        return try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { path + "/" + $0 }
    }
}
#endif
