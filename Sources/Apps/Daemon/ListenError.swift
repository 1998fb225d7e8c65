import Glibc
import NIOCore

/// A server that cannot listen, in words a person can act on: which address, and what to do
/// (NIO's own message names its system call, not the address).
enum ListenError {
    /// `what` (e.g. "the HTTP API") cannot listen on `host`:`port` because of `error`.
    static func describe(_ error: any Error, what: String, host: String, port: Int, flag: String) -> String {
        if let io = error as? IOError {
            switch io.errnoCode {
            case EADDRINUSE:
                return "\(what) cannot listen on \(host):\(port): the address is already in use (another glasses-audiod, or another "
                    + "server: `ss -ltnp 'sport = :\(port)'` names it); stop it, or give another port with \(flag)"
            case EADDRNOTAVAIL:
                return "\(what) cannot listen on \(host):\(port): no interface of this machine has that address; give one it has "
                    + "(127.0.0.1, 0.0.0.0 for all) with --bind"
            case EACCES:
                return "\(what) cannot listen on \(host):\(port): ports below 1024 need privileges; give a port from 1024 up with \(flag)"
            default:
                return "\(what) cannot listen on \(host):\(port): \(String(cString: strerror(io.errnoCode)))"
            }
        }
        return "\(what) cannot listen on \(host):\(port): \(error)"
    }

    /// Whether `error` is a failure to listen (bind) rather than a failure while serving.
    static func isListenFailure(_ error: any Error) -> Bool {
        guard let io = error as? IOError else { return false }
        return [EADDRINUSE, EADDRNOTAVAIL, EACCES].contains(io.errnoCode)
    }
}
