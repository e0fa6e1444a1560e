package dev.weir.files;

/**
 * How result and late-event rows print their instants ({@code window_start}, {@code window_end}, a late event's
 * {@code event_time}): {@link #epoch} milliseconds, the default and the format of before, or {@link #iso} UTC text.
 * The journal, the date partitions and the PostgreSQL columns keep epoch milliseconds either way.
 */
public enum TimeFormat
{
    /** Milliseconds since 1970-01-01T00:00:00Z: {@code 1796203800000}. */
    epoch,
    /**
     * ISO-8601 UTC, the milliseconds shown only when not zero: {@code 2026-12-02T09:30:00Z}, {@code 2026-12-02T09:30:00.250Z};
     * a JSON string in JSON Lines.
     */
    iso
}
