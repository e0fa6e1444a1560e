package dev.weir.check;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.weir.journal.JournalDirectory;

/**
 * The data-quality checks, the same ones {@code weir check} runs, over a journal's profile and a
 * partitions directory's profile (either may be absent; the checks that need it are then skipped):
 * <ul>
 *   <li>{@code rows}: every date partition holds at least {@link QualityThresholds#minRowsPerPartition()} rows;</li>
 *   <li>{@code unique}: at most {@link QualityThresholds#maxDuplicateRows()} rows repeat a
 *   {@code (key, window_start, window_end, version)};</li>
 *   <li>{@code rejected}: rejected input lines over lines ingested;</li>
 *   <li>{@code late}: events dropped as late, sent to the late output or in no window, over events processed
 *   (from the newest checkpoint);</li>
 *   <li>{@code duplicates}: events whose {@code event_id} repeats an earlier one, over events;</li>
 *   <li>{@code freshness}: time from the newest event time to {@code now} (skipped without a maximum);</li>
 *   <li>{@code gaps}: dates in the range without rows.</li>
 * </ul>
 * Stateless and thread-safe.
 */
public final class DataQuality
{
    private DataQuality()
    {
    }

    /**
     * @param journal    a journal's profile, or null.
     * @param partitions a partitions directory's profile, or null.
     * @param limits     the thresholds.
     * @param now        the instant freshness is measured against.
     * @return every check, in the order above.
     */
    public static List<QualityCheck> run(
        final JournalProfile journal, final PartitionProfile partitions, final QualityThresholds limits, final Instant now)
    {
        return run(journal, null, partitions, limits, now);
    }

    /**
     * The checks of {@code weir check}: as {@link #run(JournalProfile, PartitionProfile, QualityThresholds, Instant)}, with
     * one {@code late} check per pipeline ({@code late} for the default pipeline, {@code late:NAME} for a named one), in
     * place of the one of the journal profile's checkpoint. So that a gate never passes on a pipeline that did not
     * run, a pipeline without a checkpoint fails its {@code late} check, and so does a journal no pipeline has processed
     * (an empty list).
     *
     * @param journal    a journal's profile, or null (the {@code late} check is then skipped).
     * @param pipelines  the profiles of the pipelines to check ({@link PipelineProfile#allOf}); null for the journal
     *                   profile's own checkpoint, as the other method.
     * @param partitions a partitions directory's profile, or null.
     * @param limits     the thresholds.
     * @param now        the instant freshness is measured against.
     * @return every check, in the order of the class comment, the {@code late} ones in the order of the pipelines.
     */
    public static List<QualityCheck> run(final JournalProfile journal, final List<PipelineProfile> pipelines, final PartitionProfile partitions,
        final QualityThresholds limits, final Instant now)
    {
        final List<QualityCheck> checks = new ArrayList<>();
        final String noPartitions = "no partitions directory or results table given";
        final String noJournal = "no journal given";
        checks.add(partitions == null ? QualityCheck.skipped("rows", noPartitions) : rows(partitions, limits));
        checks.add(partitions == null ? QualityCheck.skipped("unique", noPartitions)
            : partitions.duplicateRows() == PartitionProfile.UNIQUE_BY_KEY ? QualityCheck.skipped("unique", "the results table's primary key rules out repeats")
            : QualityCheck.of("unique",
            String.format("%,d duplicate rows", partitions.duplicateRows()), "<= " + limits.maxDuplicateRows(),
            partitions.duplicateRows() <= limits.maxDuplicateRows(),
            "rows repeat a (key, window_start, window_end, version) of another row: the partitions were appended to, or copied"));
        checks.add(journal == null ? QualityCheck.skipped("rejected", noJournal)
            : rate("rejected", journal.rejected(), journal.events() + journal.rejected(), "lines", limits.maxRejectedRate(),
                "input lines were rejected: see the rejected-lines file for each line's number and reason"));
        addLate(checks, journal, pipelines, limits);
        checks.add(journal == null ? QualityCheck.skipped("duplicates", noJournal)
            : rate("duplicates", journal.duplicateIds(), journal.events(), "events", limits.maxDuplicateRate(),
                "events repeat an earlier event_id: the producer resends (run with --dedupe) or ids collide"));
        checks.add(freshness(journal, limits, now));
        checks.add(partitions == null ? QualityCheck.skipped("gaps", noPartitions) : gaps(partitions, limits));
        return checks;
    }

    private static void addLate(final List<QualityCheck> checks, final JournalProfile journal, final List<PipelineProfile> pipelines,
        final QualityThresholds limits)
    {
        if (journal == null)
        {
            checks.add(QualityCheck.skipped("late", "no journal given"));
        }
        else if (pipelines == null)
        {
            checks.add(journal.processed() < 0 ? QualityCheck.skipped("late", "the journal has no checkpoint: it has not been processed")
                : late("late", journal.processed(), journal.late(), limits));
        }
        else if (pipelines.isEmpty())
        {
            checks.add(QualityCheck.of("late", "no pipeline", "<= " + percent(limits.maxLateRate()), false,
                "no pipeline has processed the journal: nothing was measured"));
        }
        else
        {
            for (final PipelineProfile pipeline : pipelines)
            {
                final String name = JournalDirectory.DEFAULT_PIPELINE.equals(pipeline.name()) ? "late" : "late:" + pipeline.name();
                checks.add(pipeline.processed() < 0
                    ? QualityCheck.of(name, "no checkpoint", "<= " + percent(limits.maxLateRate()), false,
                        "pipeline " + pipeline.name() + " has no checkpoint: it has not been processed, or not checkpointed yet")
                    : late(name, pipeline.processed(), pipeline.late(), limits));
            }
        }
    }

    private static QualityCheck late(final String name, final long processed, final long late, final QualityThresholds limits)
    {
        return rate(name, late, processed, "events", limits.maxLateRate(),
            "events were late or in no window: raise --out-of-orderness or --allowed-lateness, or look at the producer's clock");
    }

    private static QualityCheck rows(final PartitionProfile partitions, final QualityThresholds limits)
    {
        if (partitions.rowsByDate().isEmpty())
        {
            return QualityCheck.of("rows", "no partitions", ">= " + limits.minRowsPerPartition() + " per partition", false,
                "the directory holds no date=YYYY-MM-DD partition");
        }
        final List<String> short_ = new ArrayList<>();
        long fewest = Long.MAX_VALUE;
        LocalDate fewestDate = null;
        long total = 0;
        for (final Map.Entry<LocalDate, Long> partition : partitions.rowsByDate().entrySet())
        {
            total += partition.getValue();
            if (partition.getValue() < fewest)
            {
                fewest = partition.getValue();
                fewestDate = partition.getKey();
            }
            if (partition.getValue() < limits.minRowsPerPartition())
            {
                short_.add("date=" + partition.getKey() + " has " + partition.getValue());
            }
        }
        return QualityCheck.of("rows",
            String.format("%,d rows in %,d partitions, fewest %,d (%s)", total, partitions.rowsByDate().size(), fewest, fewestDate),
            ">= " + limits.minRowsPerPartition() + " per partition", short_.isEmpty(), abbreviate(short_) + " rows");
    }

    private static QualityCheck rate(
        final String name, final long count, final long total, final String unit, final double max, final String failure)
    {
        final double rate = total == 0 ? 0 : (double)count / total;
        return QualityCheck.of(name, String.format(Locale.ROOT, "%s (%,d of %,d %s)", percent(rate), count, total, unit), "<= " + percent(max),
            rate <= max, failure);
    }

    private static QualityCheck freshness(final JournalProfile journal, final QualityThresholds limits, final Instant now)
    {
        if (journal == null)
        {
            return QualityCheck.skipped("freshness", "no journal given");
        }
        if (limits.maxStaleness() == null)
        {
            return QualityCheck.skipped("freshness", "no maximum staleness given (--max-staleness)");
        }
        final String threshold = "<= " + limits.maxStaleness().toString().substring(2).toLowerCase(Locale.ROOT) + " before " + now;
        if (journal.events() == 0)
        {
            return QualityCheck.of("freshness", "no events", threshold, false, "the journal holds no events");
        }
        final Instant newest = Instant.ofEpochMilli(journal.newestEventTime());
        final Duration staleness = Duration.between(newest, now);
        final String age = staleness.isNegative() ? human(staleness.negated()) + " after now" : human(staleness) + " old";
        return QualityCheck.of("freshness", "newest event " + newest + " (" + age + ")", threshold,
            staleness.compareTo(limits.maxStaleness()) <= 0, "no event newer than the maximum staleness: is the producer stalled?");
    }

    private static QualityCheck gaps(final PartitionProfile partitions, final QualityThresholds limits)
    {
        final Map<LocalDate, Long> rows = partitions.rowsByDate();
        LocalDate first = null;
        LocalDate last = null;
        for (final LocalDate date : rows.keySet())
        {
            first = first == null ? date : first;
            last = date;
        }
        // a bound not given is the first or last partition's date, but never makes the range empty: a
        // --from-date after the last partition checks that date (and finds it missing), not zero dates
        final LocalDate given = limits.fromDate() != null ? limits.fromDate() : limits.toDate();
        final LocalDate from = limits.fromDate() != null ? limits.fromDate()
            : first != null && (limits.toDate() == null || !first.isAfter(limits.toDate())) ? first : given;
        final LocalDate to = limits.toDate() != null ? limits.toDate()
            : last != null && (limits.fromDate() == null || !last.isBefore(limits.fromDate())) ? last : given;
        if (from == null || to == null)
        {
            return QualityCheck.skipped("gaps", "no partitions and no range (--from-date, --to-date)");
        }
        if (from.isAfter(to))
        {
            return QualityCheck.of("gaps", "empty range " + from + ".." + to, "<= " + limits.maxGaps(), false, "the range holds no date");
        }
        final List<String> missing = new ArrayList<>();
        long days = 0;
        for (LocalDate date = from; !date.isAfter(to); date = date.plusDays(1))
        {
            days++;
            if (rows.getOrDefault(date, 0L) == 0)
            {
                missing.add(date.toString());
            }
        }
        return QualityCheck.of("gaps", String.format("%,d of %,d dates %s..%s without rows", missing.size(), days, from, to),
            "<= " + limits.maxGaps(), missing.size() <= limits.maxGaps(), "no rows for " + abbreviate(missing));
    }

    private static String abbreviate(final List<String> items)
    {
        return items.size() <= 3 ? String.join(", ", items) : String.join(", ", items.subList(0, 3)) + " and " + (items.size() - 3) + " more";
    }

    private static String percent(final double fraction)
    {
        return String.format(Locale.ROOT, "%.3f%%", fraction * 100);
    }

    private static String human(final Duration duration)
    {
        final long seconds = duration.getSeconds();
        if (seconds < 120)
        {
            return seconds + "s";
        }
        if (seconds < 7_200)
        {
            return seconds / 60 + "m";
        }
        if (seconds < 172_800)
        {
            return seconds / 3_600 + "h";
        }
        return seconds / 86_400 + "d";
    }
}
