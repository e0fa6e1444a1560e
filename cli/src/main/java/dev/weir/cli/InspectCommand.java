package dev.weir.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.weir.check.InspectionReport;
import dev.weir.check.JournalInspection;
import dev.weir.journal.JournalDirectory;
import dev.weir.kafka.KafkaInstanceStatus;
import dev.weir.journal.JournalRefusedException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weir inspect DIR}: what a journal holds (its columns, with their generations if it gained some, offsets,
 * events, rejected lines, keys), its output journal (results, late events, last output position) and its newest
 * valid checkpoint (offset, output position, watermark, open windows, dedupe/late/duplicate counts): those of every pipeline that has processed the
 * journal (the default one when none has), each under a {@code --- pipeline NAME ---} line unless it is the default
 * alone, or of {@code --pipeline NAME} only. A journal with named pipelines also gets one line per pipeline: the
 * configuration of its newest checkpoint, the offset it covers and the events after it. After the disk section: what
 * retention removed from the events ({@code retention}) and from each pipeline's output journal ({@code history}), and the
 * retention floor with its holders ({@code floor}, from checkpoints and delivery records only). Reads only: what it prints
 * is {@link JournalInspection}'s, computed and written by the check module ({@link InspectionReport}).
 */
@Command(name = "inspect", mixinStandardHelpOptions = true, description = "Show a journal's offsets, counts, outputs and last checkpoint.")
final class InspectCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "DIR", description = "the journal directory")
    Path journal;

    @Option(names = "--pipeline", paramLabel = "NAME", description = "the one pipeline whose outputs and checkpoint to show (default: every pipeline of the journal)")
    String pipeline;

    @Override
    public Integer call()
    {
        final KafkaInstanceStatus kafka = KafkaInstanceStatus.read(journal).orElse(null);
        if (kafka != null)
        {
            System.out.print(kafka.describe());
            System.out.flush();
            return 0;
        }
        final JournalDirectory base;
        try
        {
            base = JournalDirectory.open(journal);
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        final JournalInspection inspection = JournalInspection.of(base,
            pipeline == null ? null : PipelineSelection.existing(base, pipeline).pipelineName()); // refused: one line, exit 2
        InspectionReport.write(inspection, System.out);
        System.out.flush();
        return 0;
    }
}
