extension PlanDiff {
    /// The plan-level keys a diff compares, in the plan JSON's order.
    static let planFieldOrder = ["timeZone", "pendingLimit", "reservedSlots", "coveredUntil", "dropped", "categories", "warnings"]

    /// The plan-level fields that differ: the zone, the budget and what it kept, the
    /// categories an app registers (a renamed Snooze action among them) and the warnings.
    /// An app that ignored them would keep stale categories or miss a shorter coverage.
    public static func planChanges(from old: Plan, to new: Plan) -> [FieldChange] {
        let before = planFields(of: old)
        let after = planFields(of: new)
        return planFieldOrder.compactMap { name in
            before[name] == after[name] ? nil : FieldChange(field: name, before: before[name], after: after[name])
        }
    }

    static func planFields(of plan: Plan) -> [String: FieldValue] {
        [
            "timeZone": .string(plan.timeZone), "pendingLimit": .integer(plan.pendingLimit),
            "reservedSlots": .integer(plan.reservedSlots), "coveredUntil": .instant(plan.coveredUntil),
            "dropped": .integer(plan.dropped), "categories": .categories(plan.categories), "warnings": .strings(plan.warnings),
        ]
    }
}
