/// Daybook's version, in one place: `daybook --version` prints `daybook` and this.
enum DaybookVersion {
    static let number = "0.4.0"
}
