package dev.weir.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

import dev.weir.check.CheckReport;
import dev.weir.check.PartitionProfile;
import dev.weir.check.QualityReport;
import dev.weir.check.QualitySettings;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir check}: the data-quality checks of {@link QualityReport} on a journal and/or a partitions
 * directory (or a PostgreSQL results table), the {@code late} check once for every pipeline of the journal (or for
 * {@code --pipeline NAME} only), with thresholds from flags or a small {@code name=value} config file (flags win), read by
 * {@link QualitySettings}. Prints the
 * rows per partition and a table of checks; exits 0 when every check passes (or is skipped), and
 * {@value #FAILED} when one fails, so it can gate a scheduled job. Reads only.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = "Data-quality checks on a journal and its date partitions; exit code 3 when one fails.")
final class CheckCommand implements Callable<Integer>
{
    /** Exit code when a check fails. */
    static final int FAILED = 3;

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
        final Map<String, String> settings = readConfig();
        put(settings, "min-rows", minRows);
        put(settings, "max-duplicate-rows", maxDuplicateRows);
        put(settings, "max-rejected-rate", maxRejectedRate);
        put(settings, "max-late-rate", maxLateRate);
        put(settings, "max-duplicate-rate", maxDuplicateRate);
        put(settings, "max-staleness", maxStaleness);
        put(settings, "max-gaps", maxGaps);
        put(settings, "from-date", fromDate);
        put(settings, "to-date", toDate);
        put(settings, "now", now);
        final QualitySettings parsed;
        try
        {
            parsed = QualitySettings.parse(settings, Clock.systemUTC());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException(ex.getMessage());
        }

        final JournalDirectory base = journal == null ? null : openJournal();
        final String selected = base == null || pipeline == null ? null : PipelineSelection.existing(base, pipeline).pipelineName();
        final PartitionProfile partitions = outputDir != null ? partitionFiles() : jdbcUrl != null ? resultsTable() : null;
        final QualityReport report = QualityReport.of(base, selected, partitions, parsed.thresholds(), parsed.now());
        CheckReport.write(report, System.out);
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

    /** @return the settings of the {@code --config} file, each value trimmed, or none without one. */
    private Map<String, String> readConfig()
    {
        final Map<String, String> settings = new HashMap<>();
        if (config == null)
        {
            return settings;
        }
        final Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(config, StandardCharsets.UTF_8))
        {
            properties.load(in);
        }
        catch (final IOException ex)
        {
            throw new BadInputException("cannot read --config " + config + ": " + ex.getMessage());
        }
        try
        {
            QualitySettings.checkNames(properties.stringPropertyNames());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException("--config " + config + ": " + ex.getMessage());
        }
        properties.stringPropertyNames().forEach(name -> settings.put(name, properties.getProperty(name).trim()));
        return settings;
    }

    /** A flag wins over the config file. */
    private static void put(final Map<String, String> settings, final String name, final String flag)
    {
        if (flag != null)
        {
            settings.put(name, flag);
        }
    }
}
