/// An interface of methods that return nothing: each call is accepted, or refused with the
/// error `refusal` gives for the method's name (a policy kept apart from the D-Bus plumbing,
/// as BlueZ's Agent1 implementations are).
extension DBusInterface {
    public static func answering(
        _ name: String, methods: [(name: String, signature: String)], refusal: @escaping @Sendable (String) -> DBusError?
    ) -> DBusInterface {
        DBusInterface(name, methods: methods.map { method in
            DBusMethod(method.name, in: method.signature) { _ in
                if let error = refusal(method.name) { throw error }
                return []
            }
        })
    }
}
