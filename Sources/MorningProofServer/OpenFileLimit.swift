#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open files, which every connection spends one of.
public enum OpenFileLimit {
    /// Descriptors kept for what is not a connection: the database files, the listening socket, logs.
    public static let reserved = 64

    /// Raises the soft limit to the hard one, as Go's runtime does at start (the common soft
    /// limit of 1,024 is a relic of `select`, which NIO does not use), and returns the limit now
    /// in force; nil when it cannot be read.
    @discardableResult
    public static func raise() -> Int? {
        var limit = rlimit()
        guard getrlimit(resourceLimit, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resourceLimit, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// The most connections the limit allows with `reserved` descriptors kept aside.
    public static func connectionsAllowed(byLimit limit: Int) -> Int {
        max(1, limit - reserved)
    }

    #if canImport(Glibc)
        private static let resourceLimit = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resourceLimit = RLIMIT_NOFILE
    #endif
}
