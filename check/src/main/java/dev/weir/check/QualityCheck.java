package dev.weir.check;

/**
 * The outcome of one data-quality check. Immutable.
 *
 * @param name      the check: {@code rows}, {@code unique}, {@code rejected}, {@code late} (or {@code late:PIPELINE}), {@code duplicates},
 *                  {@code freshness} or {@code gaps}.
 * @param measured  what was measured, as shown in the table.
 * @param threshold the limit it was held to.
 * @param status    whether it passed.
 * @param detail    a short explanation: what failed, or why it was skipped; empty when it passed.
 */
public record QualityCheck(String name, String measured, String threshold, Status status, String detail)
{
    /** A check's outcome. */
    public enum Status
    {
        /** Within its threshold. */
        PASS,
        /** Outside its threshold: the data should not be trusted as it is. */
        FAIL,
        /** Not run: what it needs was not given (the detail says what). */
        SKIP
    }

    static QualityCheck of(final String name, final String measured, final String threshold, final boolean passed, final String failure)
    {
        return new QualityCheck(name, measured, threshold, passed ? Status.PASS : Status.FAIL, passed ? "" : failure);
    }

    static QualityCheck skipped(final String name, final String why)
    {
        return new QualityCheck(name, "-", "-", Status.SKIP, why);
    }
}
