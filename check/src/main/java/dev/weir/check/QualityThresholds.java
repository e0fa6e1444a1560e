package dev.weir.check;

import java.time.Duration;
import java.time.LocalDate;

/**
 * The limits {@link DataQuality} holds data to. Immutable; the {@code with…} methods return a copy.
 *
 * @param minRowsPerPartition fewest result rows a date partition may hold (default 1: an empty partition fails).
 * @param maxDuplicateRows    most rows that repeat a {@code (key, window_start, window_end, version)} already seen (default 0).
 * @param maxRejectedRate     most rejected input lines, as a fraction of the lines ingested (default 0.01).
 * @param maxLateRate         most events dropped as late, sent to the late output or in no window, as a fraction of
 *                            the events processed (default 0.01).
 * @param maxDuplicateRate    most events whose {@code event_id} repeats an earlier event's, as a fraction of the
 *                            events in the journal (default 0.001).
 * @param maxStaleness        longest time from the newest event time to "now" (null, the default: freshness is skipped).
 * @param maxGaps             most dates without rows inside the range (default 0).
 * @param fromDate            first date of the range the gaps check covers (null: the first partition's).
 * @param toDate              last date of that range, inclusive (null: the last partition's).
 */
public record QualityThresholds(
    long minRowsPerPartition,
    long maxDuplicateRows,
    double maxRejectedRate,
    double maxLateRate,
    double maxDuplicateRate,
    Duration maxStaleness,
    long maxGaps,
    LocalDate fromDate,
    LocalDate toDate)
{
    /** The defaults. */
    public static final QualityThresholds DEFAULTS = new QualityThresholds(1, 0, 0.01, 0.01, 0.001, null, 0, null, null);

    /**
     * @param rows fewest rows per partition.
     * @return a copy with it.
     */
    public QualityThresholds withMinRowsPerPartition(final long rows)
    {
        return new QualityThresholds(rows, maxDuplicateRows, maxRejectedRate, maxLateRate, maxDuplicateRate, maxStaleness, maxGaps, fromDate, toDate);
    }

    /**
     * @param rows most duplicate rows.
     * @return a copy with it.
     */
    public QualityThresholds withMaxDuplicateRows(final long rows)
    {
        return new QualityThresholds(minRowsPerPartition, rows, maxRejectedRate, maxLateRate, maxDuplicateRate, maxStaleness, maxGaps, fromDate, toDate);
    }

    /**
     * @param rate most rejected lines, a fraction.
     * @return a copy with it.
     */
    public QualityThresholds withMaxRejectedRate(final double rate)
    {
        return new QualityThresholds(minRowsPerPartition, maxDuplicateRows, rate, maxLateRate, maxDuplicateRate, maxStaleness, maxGaps, fromDate, toDate);
    }

    /**
     * @param rate most late or skipped events, a fraction.
     * @return a copy with it.
     */
    public QualityThresholds withMaxLateRate(final double rate)
    {
        return new QualityThresholds(minRowsPerPartition, maxDuplicateRows, maxRejectedRate, rate, maxDuplicateRate, maxStaleness, maxGaps, fromDate, toDate);
    }

    /**
     * @param rate most duplicate events, a fraction.
     * @return a copy with it.
     */
    public QualityThresholds withMaxDuplicateRate(final double rate)
    {
        return new QualityThresholds(minRowsPerPartition, maxDuplicateRows, maxRejectedRate, maxLateRate, rate, maxStaleness, maxGaps, fromDate, toDate);
    }

    /**
     * @param staleness longest time from the newest event to now, or null to skip freshness.
     * @return a copy with it.
     */
    public QualityThresholds withMaxStaleness(final Duration staleness)
    {
        return new QualityThresholds(minRowsPerPartition, maxDuplicateRows, maxRejectedRate, maxLateRate, maxDuplicateRate, staleness, maxGaps, fromDate, toDate);
    }

    /**
     * @param gaps most dates without rows.
     * @return a copy with it.
     */
    public QualityThresholds withMaxGaps(final long gaps)
    {
        return new QualityThresholds(minRowsPerPartition, maxDuplicateRows, maxRejectedRate, maxLateRate, maxDuplicateRate, maxStaleness, gaps, fromDate, toDate);
    }

    /**
     * @param from first date of the gaps range, or null.
     * @param to   last date, inclusive, or null.
     * @return a copy with them.
     */
    public QualityThresholds withRange(final LocalDate from, final LocalDate to)
    {
        return new QualityThresholds(minRowsPerPartition, maxDuplicateRows, maxRejectedRate, maxLateRate, maxDuplicateRate, maxStaleness, maxGaps, from, to);
    }
}
