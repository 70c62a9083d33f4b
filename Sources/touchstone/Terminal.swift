import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading secrets and printing one-line errors.
enum Terminal {
    /// Reads one line from standard input; on a terminal, asks with `prompt` (on standard error) and hides the typing.
    static func readSecret(prompt: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) }
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var hidden = original
        hidden.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &hidden)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }

    /// Asks for the PIN on the terminal (hidden), or reads it from standard input.
    /// - Parameter reason: said first, on a line of its own: why the PIN is asked.
    static func askPIN(_ reason: String? = nil) -> String? {
        readSecret(prompt: (reason.map { $0 + "\n" } ?? "") + "PIN: ")
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data("touchstone: \(line)\n".utf8))
    }

    static func printLine(_ line: String) {
        FileHandle.standardError.write(Data("\(line)\n".utf8))
    }
}
