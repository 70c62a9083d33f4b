import Synchronization
import TouchstoneClient

/// A PIN prompt that answers `answer` and records why it was asked each time.
final class PINPromptRecorder: Sendable {
    let answer: String?
    private let log = Mutex<[TouchstoneError]>([])

    init(answering answer: String?) {
        self.answer = answer
    }

    /// The reasons the prompt was shown with, in order.
    var reasons: [TouchstoneError.Code] { log.withLock { $0.map(\.code) } }

    var prompt: PINPrompt {
        { [self] reason in
            log.withLock { $0.append(reason) }
            return answer
        }
    }
}
