package dev.weir.engine;

import java.nio.file.Path;

import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.JvmFlagsMissingException;

/**
 * The {@code main} of a child JVM that {@link JvmCheckPipelineTest} starts without Chronicle's flags: it builds
 * a pipeline on the journal named by its argument and prints {@code built}, or, refused for missing flags,
 * prints the exception's message after {@code refused:} and exits with 3.
 */
final class JvmCheckPipelineChild
{
    static final int REFUSED = 3;

    private JvmCheckPipelineChild()
    {
    }

    /**
     * @param args the journal directory.
     */
    public static void main(final String[] args)
    {
        try
        {
            Weir.pipeline().journal(Path.of(args[0])).window(TumblingWindows.of(1_000)).onResult(result -> { }).build();
        }
        catch (final JvmFlagsMissingException ex)
        {
            System.out.println("refused:" + ex.getMessage());
            System.out.flush();
            System.exit(REFUSED);
        }
        System.out.println("built");
        System.out.flush();
        System.exit(0);
    }
}
