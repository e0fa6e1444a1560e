package dev.weir.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;

import dev.weir.check.PartitionProfile;
import dev.weir.check.QualityReport;
import dev.weir.check.QualityThresholds;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir check}: the data-quality checks of {@link QualityReport} on a journal and/or a partitions
 * directory (or a PostgreSQL results table), the {@code late} check once for every pipeline of the journal (or for
 * {@code --pipeline NAME} only), with thresholds from flags or a small {@code name=value} config file (flags win). Prints the
 * rows per partition and a table of checks; exits 0 when every check passes (or is skipped), and
 * {@value #FAILED} when one fails, so it can gate a scheduled job. Reads only.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = "Data-quality checks on a journal and its date partitions; exit code 3 when one fails.")
final class CheckCommand implements Callable<Integer>
{
    /** Exit code when a check fails. */
    static final int FAILED = 3;

    private static final Set<String> CONFIG_NAMES = Set.of("min-rows", "max-duplicate-rows", "max-rejected-rate", "max-late-rate",
        "max-duplicate-rate", "max-staleness", "max-gaps", "from-date", "to-date", "now");

    @Option(names = "--journal", paramLabel = "DIR", description = "the journal: rejected, late, duplicates and freshness checks")
    Path journal;

    @Option(names = "--pipeline", paramLabel = "NAME",
        description = "with --journal: the one pipeline whose newest checkpoint the late check reads (default: every pipeline, one late check each)")
    String pipeline;

    @Option(names = "--output-dir", paramLabel = "DIR", description = "date partitions (as --output-dir writes them): rows, unique and gaps checks")
    Path outputDir;

    @Option(names = "--jdbc-url", paramLabel = "URL", description = "instead of --output-dir: a PostgreSQL results table (rows, unique and gaps checks)")
    String jdbcUrl;

    @Option(names = "--jdbc-table", paramLabel = "NAME", description = "the results table for --jdbc-url (default: weir_results)")
    String jdbcTable;

    @Option(names = "--config", paramLabel = "FILE", description = "thresholds as name=value lines, the names of these flags without '--'")
    Path config;

    @Option(names = "--min-rows", paramLabel = "N", description = "fewest rows per partition (default 1)")
    String minRows;

    @Option(names = "--max-duplicate-rows", paramLabel = "N", description = "most rows repeating a (key, window_start, window_end, version) (default 0)")
    String maxDuplicateRows;

    @Option(names = "--max-rejected-rate", paramLabel = "RATE", description = "most rejected lines, a fraction or a percentage like 1%% (default 1%%)")
    String maxRejectedRate;

    @Option(names = "--max-late-rate", paramLabel = "RATE", description = "most late or windowless events of those processed (default 1%%)")
    String maxLateRate;

    @Option(names = "--max-duplicate-rate", paramLabel = "RATE", description = "most events repeating an event_id (default 0.1%%)")
    String maxDuplicateRate;

    @Option(names = "--max-staleness", paramLabel = "DURATION", description = "longest time from the newest event to --now (default: freshness skipped)")
    String maxStaleness;

    @Option(names = "--now", paramLabel = "INSTANT", description = "the instant freshness is measured against: ISO-8601 or epoch ms (default: the wall clock)")
    String now;

    @Option(names = "--max-gaps", paramLabel = "N", description = "most dates without rows in the range (default 0)")
    String maxGaps;

    @Option(names = "--from-date", paramLabel = "YYYY-MM-DD", description = "first date the gaps check covers (default: the first partition's)")
    String fromDate;

    @Option(names = "--to-date", paramLabel = "YYYY-MM-DD", description = "last date the gaps check covers (default: the last partition's)")
    String toDate;

    @Override
    public Integer call()
    {
        if (journal == null && outputDir == null && jdbcUrl == null)
        {
            throw new BadInputException("give --journal DIR and/or --output-dir DIR or --jdbc-url URL");
        }
        if (pipeline != null && journal == null)
        {
            throw new BadInputException("--pipeline needs --journal DIR");
        }
        if (outputDir != null && jdbcUrl != null)
        {
            throw new BadInputException("give --output-dir DIR or --jdbc-url URL, not both");
        }
        if (jdbcTable != null && jdbcUrl == null)
        {
            throw new BadInputException("--jdbc-table needs --jdbc-url");
        }
        if (jdbcUrl != null)
        {
            PostgresDelivery.checkUrl(jdbcUrl);
        }
        final Properties file = readConfig();
        QualityThresholds limits = QualityThresholds.DEFAULTS;
        final String rows = pick("min-rows", minRows, file);
        if (rows != null)
        {
            limits = limits.withMinRowsPerPartition(count("min-rows", rows));
        }
        final String duplicateRows = pick("max-duplicate-rows", maxDuplicateRows, file);
        if (duplicateRows != null)
        {
            limits = limits.withMaxDuplicateRows(count("max-duplicate-rows", duplicateRows));
        }
        final String rejected = pick("max-rejected-rate", maxRejectedRate, file);
        if (rejected != null)
        {
            limits = limits.withMaxRejectedRate(rate("max-rejected-rate", rejected));
        }
        final String late = pick("max-late-rate", maxLateRate, file);
        if (late != null)
        {
            limits = limits.withMaxLateRate(rate("max-late-rate", late));
        }
        final String duplicates = pick("max-duplicate-rate", maxDuplicateRate, file);
        if (duplicates != null)
        {
            limits = limits.withMaxDuplicateRate(rate("max-duplicate-rate", duplicates));
        }
        final String staleness = pick("max-staleness", maxStaleness, file);
        if (staleness != null)
        {
            limits = limits.withMaxStaleness(Duration.ofMillis(duration("max-staleness", staleness)));
        }
        final String gaps = pick("max-gaps", maxGaps, file);
        if (gaps != null)
        {
            limits = limits.withMaxGaps(count("max-gaps", gaps));
        }
        limits = limits.withRange(date("from-date", pick("from-date", fromDate, file)), date("to-date", pick("to-date", toDate, file)));
        if (limits.fromDate() != null && limits.toDate() != null && limits.toDate().isBefore(limits.fromDate()))
        {
            throw new BadInputException("--to-date " + limits.toDate() + " is before --from-date " + limits.fromDate());
        }
        final Instant at = instant(pick("now", now, file));

        final JournalDirectory base = journal == null ? null : openJournal();
        final String selected = base == null || pipeline == null ? null : PipelineSelection.existing(base, pipeline).pipelineName();
        final PartitionProfile partitions = outputDir != null ? partitionFiles() : jdbcUrl != null ? resultsTable() : null;
        final QualityReport report = QualityReport.of(base, selected, partitions, limits, at);
        CheckReport.print(System.out, report);
        return report.failed() > 0 ? FAILED : 0;
    }

    private PartitionProfile partitionFiles()
    {
        try
        {
            return PartitionProfile.of(outputDir);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    private PartitionProfile resultsTable()
    {
        try
        {
            return PartitionProfile.ofUniqueRows(
                dev.weir.postgres.ResultsTableRows.byDate(jdbcUrl, jdbcTable != null ? jdbcTable : dev.weir.postgres.PostgresSink.DEFAULT_TABLE));
        }
        catch (final dev.weir.postgres.SinkRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        catch (final java.sql.SQLException ex)
        {
            throw new IllegalStateException("cannot read the results table at " + dev.weir.postgres.PostgresSink.redacted(jdbcUrl) + ": "
                + ex.getMessage(), ex);
        }
    }

    private JournalDirectory openJournal()
    {
        try
        {
            return JournalDirectory.open(journal);
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    private Properties readConfig()
    {
        final Properties properties = new Properties();
        if (config == null)
        {
            return properties;
        }
        try (Reader in = Files.newBufferedReader(config, StandardCharsets.UTF_8))
        {
            properties.load(in);
        }
        catch (final IOException ex)
        {
            throw new BadInputException("cannot read --config " + config + ": " + ex.getMessage());
        }
        for (final String name : properties.stringPropertyNames())
        {
            if (!CONFIG_NAMES.contains(name))
            {
                throw new BadInputException("--config " + config + ": unknown setting '" + name + "' (known: " + String.join(", ",
                    CONFIG_NAMES.stream().sorted().toList()) + ")");
            }
        }
        return properties;
    }

    private static String pick(final String name, final String flag, final Properties file)
    {
        return flag != null ? flag : file.getProperty(name) == null ? null : file.getProperty(name).trim();
    }

    private static long count(final String name, final String text)
    {
        try
        {
            final long value = Long.parseLong(text);
            if (value >= 0)
            {
                return value;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new BadInputException(name + " must be a whole number >= 0: '" + text + "'");
    }

    private static double rate(final String name, final String text)
    {
        try
        {
            final boolean percent = text.endsWith("%");
            final double value = Double.parseDouble(percent ? text.substring(0, text.length() - 1) : text) / (percent ? 100 : 1);
            if (value >= 0 && value <= 1)
            {
                return value;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new BadInputException(name + " must be a fraction from 0 to 1, or a percentage like 0.5%: '" + text + "'");
    }

    private static long duration(final String name, final String text)
    {
        try
        {
            return Durations.parseMillis(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException(name + ": " + ex.getMessage());
        }
    }

    private static LocalDate date(final String name, final String text)
    {
        if (text == null)
        {
            return null;
        }
        try
        {
            return LocalDate.parse(text);
        }
        catch (final DateTimeParseException ex)
        {
            throw new BadInputException(name + " must be a date YYYY-MM-DD: '" + text + "'");
        }
    }

    private static Instant instant(final String text)
    {
        if (text == null)
        {
            return Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        }
        try
        {
            return text.chars().allMatch(Character::isDigit) ? Instant.ofEpochMilli(Long.parseLong(text)) : Instant.parse(text);
        }
        catch (final DateTimeParseException | NumberFormatException ex)
        {
            throw new BadInputException("now must be an ISO-8601 instant (2026-11-30T08:00:00Z) or epoch milliseconds: '" + text + "'");
        }
    }
}
