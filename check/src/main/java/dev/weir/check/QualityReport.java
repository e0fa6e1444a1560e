package dev.weir.check;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.weir.journal.JournalDirectory;

/**
 * What {@code weir check} reports: the checks of {@link DataQuality} on what was given (a journal, with the
 * {@code late} check once for every pipeline of it or for one; date partitions or a results table, profiled by the
 * caller), and the partitions' rows. Immutable once made; {@link #of} runs on the caller's thread and reads only.
 *
 * @param partitions the partitions' profile, or empty if none was given.
 * @param checks     one per check, in {@link DataQuality#run}'s order.
 */
public record QualityReport(Optional<PartitionProfile> partitions, List<QualityCheck> checks)
{
    /**
     * Compact constructor: the list is copied, unmodifiable.
     */
    public QualityReport
    {
        checks = List.copyOf(checks);
    }

    /**
     * @param journal    the journal, or null to skip its checks.
     * @param pipeline   with a journal: the one pipeline whose {@code late} check to run, or null for every pipeline (a
     *                   gate never passes on a pipeline that did not run: a journal no pipeline processed fails it).
     * @param partitions the date partitions' or results table's profile, or null to skip their checks.
     * @param limits     the thresholds.
     * @param now        the instant freshness is measured against.
     * @return the checks.
     * @throws IllegalArgumentException if the pipeline's name breaks the rule.
     */
    public static QualityReport of(
        final JournalDirectory journal, final String pipeline, final PartitionProfile partitions, final QualityThresholds limits, final Instant now)
    {
        final List<PipelineProfile> pipelines = journal == null ? null : pipeline == null ? PipelineProfile.allOf(journal)
            : List.of(PipelineProfile.of(journal.pipeline(pipeline)));
        final JournalProfile profile = journal == null ? null : JournalProfile.of(journal);
        return new QualityReport(Optional.ofNullable(partitions), DataQuality.run(profile, pipelines, partitions, limits, now));
    }

    /**
     * @return how many checks failed.
     */
    public long failed()
    {
        return checks.stream().filter(check -> check.status() == QualityCheck.Status.FAIL).count();
    }
}
