import CHookSpawn
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One running hook: its process (which leads its own process group), the pipe to its input and
/// the pipe its output and errors come back on. Started by `mphook_spawn` (the C shim), waited
/// for on the thread that started it.
struct HookProcess: ~Copyable {
    /// How a run ended.
    enum Ending: Equatable {
        /// The hook exited with this status (its descendants may still be running).
        case exited(Int32)
        /// The hook was ended by this signal, not by us.
        case signalled(Int32)
        /// Still running at its timeout: its process group was killed.
        case timedOut
        /// A shutdown was asked for while it ran: its process group was killed.
        case stopped
    }

    let pid: pid_t
    private var input: Int32
    private var output: Int32

    /// Starts `path` with `environment`; throws the errno of the failed pipe, fork or exec.
    init(path: String, environment: [String: String]) throws(HookStartError) {
        let arguments = CStringArray([path])
        let variables = CStringArray(environment.map { "\($0.key)=\($0.value)" }.sorted())
        var input: Int32 = -1, output: Int32 = -1, error: Int32 = 0
        let pid = withExtendedLifetime((arguments, variables)) {
            mphook_spawn(path, arguments.pointers, variables.pointers, &input, &output, &error)
        }
        guard pid > 0 else { throw HookStartError(code: error) }
        self.pid = pid
        self.input = input
        self.output = output
    }

    deinit {
        if input >= 0 { close(input) }
        if output >= 0 { close(output) }
    }

    /// Writes `bytes` to the hook's input and reads its output into `tail` until the hook exits
    /// (then for at most `afterExit` seconds more: whatever it left running may hold the pipe),
    /// `timeout` seconds pass, or `stop` says so. Never waits on the hook's descendants.
    mutating func run(
        input bytes: [UInt8], timeout: TimeInterval, afterExit: TimeInterval, tail: inout OutputTail,
        stop: ShutdownRequest?
    ) -> Ending {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        var sent = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let status = reap(blocking: false) {
                closeInput()
                let drainEnd = clock.now + .seconds(afterExit)
                while output >= 0, clock.now < drainEnd { pump(bytes, &sent, &buffer, &tail, until: drainEnd) }
                return Self.ending(status)
            }
            if clock.now >= deadline { return end(.timedOut, tail: &tail, buffer: &buffer) }
            if stop?.isRequested == true { return end(.stopped, tail: &tail, buffer: &buffer) }
            pump(bytes, &sent, &buffer, &tail, until: deadline)
        }
    }

    /// Waits up to 20 ms (less before `limit`) for the pipes, then moves what they allow.
    private mutating func pump(
        _ bytes: [UInt8], _ sent: inout Int, _ buffer: inout [UInt8], _ tail: inout OutputTail,
        until limit: ContinuousClock.Instant
    ) {
        var watched: [pollfd] = []
        if output >= 0 { watched.append(pollfd(fd: output, events: Int16(POLLIN), revents: 0)) }
        if input >= 0 { watched.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
        let left = ContinuousClock.now.duration(to: limit) / .milliseconds(1)
        let milliseconds = Int32(max(0, min(20, left.rounded(.up))))
        _ = poll(&watched, nfds_t(watched.count), milliseconds)
        readOutput(&buffer, into: &tail)
        if input >= 0 {
            if sent < bytes.count {
                let written = bytes.withUnsafeBytes { raw in
                    mphook_write(input, raw.baseAddress! + sent, bytes.count - sent)
                }
                if written > 0 {
                    sent += written
                } else if written < 0 && errno != EAGAIN && errno != EINTR {
                    closeInput()
                }
            }
            if sent >= bytes.count { closeInput() }
        }
    }

    /// Reads what is there now (at most 1 MB per call, so that a flood still lets us look at the clock).
    private mutating func readOutput(_ buffer: inout [UInt8], into tail: inout OutputTail) {
        for _ in 0..<16 where output >= 0 {
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count > 0 {
                tail.append(buffer[0..<count])
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                close(output)
                output = -1
            } else {
                return
            }
        }
    }

    /// Kills the hook's process group (SIGTERM, then SIGKILL after half a second) and reaps the hook.
    private mutating func end(_ ending: Ending, tail: inout OutputTail, buffer: inout [UInt8]) -> Ending {
        closeInput()
        signalGroup(SIGTERM)
        let grace = ContinuousClock.now + .milliseconds(500)
        while !hasExited(), ContinuousClock.now < grace {
            readOutput(&buffer, into: &tail)
            usleep(10_000)
        }
        // The hook has not been reaped yet, so its group id cannot have been reused.
        signalGroup(SIGKILL)
        _ = reap(blocking: true)
        readOutput(&buffer, into: &tail)
        return ending
    }

    private func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
        kill(pid, signal)  // in case it left its group
    }

    /// True once the hook has exited, without reaping it.
    private func hasExited() -> Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return true }
        #if os(Linux)
            return info._sifields._sigchld.si_pid == pid
        #else
            return info.si_pid == pid
        #endif
    }

    /// The hook's wait status once it has exited (reaping it), or nil while it runs.
    private func reap(blocking: Bool) -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == pid { return status }
            if result < 0 && errno == EINTR { continue }
            // ECHILD: someone else reaped it; count it as a failure rather than wait forever.
            return result == 0 ? nil : (127 << 8)
        }
    }

    private mutating func closeInput() {
        if input >= 0 {
            close(input)
            input = -1
        }
    }

    private static func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}

/// Why a hook could not start: an errno value from the pipes, the fork or the exec.
struct HookStartError: Error {
    var code: Int32
}

/// The last `limit` bytes a hook wrote: all the error message needs, whatever it writes.
struct OutputTail {
    let limit: Int
    private(set) var bytes: [UInt8] = []

    init(limit: Int = 64 * 1024) { self.limit = limit }

    mutating func append(_ chunk: ArraySlice<UInt8>) {
        if chunk.count >= limit {
            bytes = Array(chunk.suffix(limit))
            return
        }
        bytes.append(contentsOf: chunk)
        if bytes.count > 2 * limit { bytes.removeFirst(bytes.count - limit) }
    }

    /// The last non-empty line (at most 300 characters), for a person.
    var lastLine: String {
        let text = String(decoding: bytes.suffix(limit), as: UTF8.self)
        let last = text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        return String(last.trimmingCharacters(in: .whitespaces).prefix(300))
    }
}

/// Strings as the NULL-terminated `char *[]` that exec takes, freed with the array.
private final class CStringArray {
    let pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) { pointers = strings.map { strdup($0) } + [nil] }

    deinit { pointers.forEach { free($0) } }
}
