package dev.weir.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.weir.engine.retention.JournalRetention;
import dev.weir.engine.retention.RetentionReport;
import dev.weir.journal.JournalClock;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir retain --journal J --keep DURATION [--archive DIR] [--dry-run]}: one retention step
 * ({@link JournalRetention}): removes, or moves to the archive, every whole roll cycle of the events queue and of
 * each pipeline's output journal that ended more than DURATION ago, never past the retention floor, and prints
 * what it removed, the floor and its holders, and what the floor held back. Exit 0 when it ran (whether or not
 * anything was old enough), 2 for a bad flag or a journal it refuses (another retention step running, a
 * corrupt history base).
 */
@Command(name = "retain", mixinStandardHelpOptions = true,
    description = "Remove (or archive) the journal's whole roll cycles older than a retention, never past what pipelines, deliveries and resumes still need.")
final class RetainCommand implements Callable<Integer>
{
    @Option(names = "--journal", required = true, paramLabel = "DIR", description = "the journal")
    Path journal;

    @Option(names = "--keep", required = true, paramLabel = "DURATION", converter = Durations.class,
        description = "keep every cycle that ended less than this long ago (e.g. 7d, 12h, 30m)")
    long keepMillis;

    @Option(names = "--archive", paramLabel = "DIR",
        description = "move removed cycles here (same layout as the journal) instead of deleting them; 'weir replay --archive DIR' reads them back")
    Path archive;

    @Option(names = "--dry-run", description = "print what would be removed; remove nothing")
    boolean dryRun;

    @Override
    public Integer call()
    {
        final JournalDirectory directory;
        try
        {
            directory = JournalDirectory.open(journal);
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        final Path archiveRoot = archive == null ? null : archive.toAbsolutePath().normalize();
        if (archiveRoot != null)
        {
            if (archiveRoot.startsWith(directory.root()))
            {
                throw new BadInputException("--archive " + archive + " is inside the journal " + directory.root() + ": archive elsewhere");
            }
            Path existing = archiveRoot;
            while (existing != null && !Files.exists(existing))
            {
                existing = existing.getParent();
            }
            if (existing == null || !Files.isDirectory(existing))
            {
                throw new BadInputException("--archive " + archive + " cannot be a directory: " + existing + " is a file");
            }
        }
        final RetentionReport report;
        try
        {
            report = JournalRetention.apply(directory, keepMillis, archiveRoot, JournalClock.current().now(), dryRun);
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        for (final String line : report.lines())
        {
            System.out.println(line);
        }
        return 0;
    }
}
