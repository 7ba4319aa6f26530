/// The reconciliation's two forms: text for people, JSON for programs.
@_spi(Tooling) public enum ReconciliationOutput {
    /// `remove` (IDs), `add` (whole notifications as the plan writes them), `unchanged`,
    /// `foreign` and `notes`.
    public static func json(_ reconciliation: Reconciliation) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 512 + reconciliation.add.count * 600)
        writer.beginObject()
        writer.field("formatVersion", 1)
        writer.field("remove", reconciliation.remove)
        writer.field("add", notifications: reconciliation.add)
        writer.field("unchanged", reconciliation.unchanged)
        writer.field("foreign", reconciliation.foreign)
        writer.field("notes", reconciliation.notes)
        writer.endObject()
        writer.append("\n")
        return writer.bytes
    }

    /// One line per ID to remove (`-`) and notification to add (`+`), in the order to
    /// apply them, then the notes and a summary.
    public static func text(_ reconciliation: Reconciliation) -> String {
        var lines = reconciliation.remove.map { "- \($0)" }
        lines += reconciliation.add.map { "+ \($0.id) \($0.fireAt.display)  \($0.title)" }
        lines += reconciliation.notes.map { "note: \($0)" }
        lines.append(
            "Reconcile: \(reconciliation.remove.count) to remove, \(reconciliation.add.count) to add, "
                + "\(reconciliation.unchanged) unchanged, \(reconciliation.foreign.count) not remindc's."
        )
        return lines.joined(separator: "\n") + "\n"
    }
}
