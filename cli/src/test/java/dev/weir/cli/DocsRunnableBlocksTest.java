package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code sh runnable} block of the documentation runs and exits as it says (see {@link RunnableBlocks}); a
 * planted failing block is reported with its place and output. Slow: each block starts JVMs.
 */
@Tag("slow")
class DocsRunnableBlocksTest
{
    @TempDir
    Path dir;

    @Test
    void everyRunnableBlockExitsAsItSays() throws IOException, InterruptedException
    {
        final RunnableBlocks blocks = new RunnableBlocks(dir);
        final List<String> failures = blocks.failures(DocsTest.pages());
        assertTrue(failures.isEmpty(), failures.size() + " of " + blocks.blocksRun() + " runnable blocks failed:\n"
            + String.join("\n\n", failures));
    }

    @Test
    void aFailingBlockIsReportedWithItsPlaceAndOutput() throws IOException, InterruptedException
    {
        final Path page = Files.createDirectories(dir.resolve("repo"));
        Files.writeString(page.resolve("README.md"), "# Weir\n\n"
            + "```sh runnable\necho one > one.txt\n```\n\n"
            + "```sh runnable continue\ncat one.txt\nweir run --window tumbling:10s --journal missing --results r.csv\n```\n\n"
            + "```sh runnable exit=2\ntest ! -e one.txt\nweir run --window tumbling:10s --journal missing --results r.csv\n```\n");

        final RunnableBlocks blocks = new RunnableBlocks(Files.createDirectories(dir.resolve("scratch")));
        final List<String> failures = blocks.failures(MarkdownPage.documentation(page));

        assertEquals(3, blocks.blocksRun());
        assertEquals(1, failures.size(), String.join("\n", failures));
        assertTrue(failures.get(0).startsWith("README.md:7: the sh runnable block exited 2, expected 0; its output:\none\nweir: "), failures.get(0));
    }
}
