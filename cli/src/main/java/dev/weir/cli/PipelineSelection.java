package dev.weir.cli;

import java.nio.file.Files;

import dev.weir.journal.JournalDirectory;

/**
 * The {@code --pipeline NAME} of the commands that read one pipeline of a journal ({@code weir stat},
 * {@code weir check}): the name checked against the rule, and a named pipeline that has never run refused,
 * naming those the journal has, so a misspelt name is not read as an empty pipeline. Stateless.
 */
final class PipelineSelection
{
    private PipelineSelection()
    {
    }

    /**
     * @param journal the journal.
     * @param name    the pipeline's name, or null for the default.
     * @return the journal as that pipeline sees it.
     * @throws BadInputException if the name breaks the rule, or names a pipeline that has never run on the journal.
     */
    static JournalDirectory existing(final JournalDirectory journal, final String name)
    {
        final JournalDirectory pipeline;
        try
        {
            pipeline = journal.pipeline(name == null ? JournalDirectory.DEFAULT_PIPELINE : name);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException("--pipeline: " + ex.getMessage());
        }
        if (!JournalDirectory.DEFAULT_PIPELINE.equals(pipeline.pipelineName()) && !Files.isDirectory(pipeline.pipelineRoot()))
        {
            throw new BadInputException("journal " + journal.root() + " has no pipeline '" + pipeline.pipelineName() + "' (its pipelines: "
                + (journal.pipelines().isEmpty() ? "none" : String.join(", ", journal.pipelines())) + ")");
        }
        return pipeline;
    }
}
