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
/// Without libFuzzer: `touchstone-fuzz TARGET PATH...` runs each file (or each file in each directory) through the
/// target once, to replay a crash or a corpus in an ordinary build.
@main
struct Replay {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " | ")
            print("usage: touchstone-fuzz (\(names)) PATH...")
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            for file in try files(at: path) {
                try target.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
                count += 1
            }
        }
        print("\(target.rawValue): \(count) inputs, none crashed")
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
