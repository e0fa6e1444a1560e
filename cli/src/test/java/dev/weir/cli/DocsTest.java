package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documentation (README.md and docs/*.md, whatever exists) holds together: every relative link resolves, to
 * a heading where it names one; every {@code --flag} shown in code is an option of a {@code weir} command; every
 * {@code sh runnable} block's info string is well formed. {@link DocsRunnableBlocksTest} runs the blocks. Each
 * check is also shown failing on a planted page.
 */
class DocsTest
{
    /** The repository: the cli module's parent, or the directory the property {@code weir.docs.root} names (to check a draft). */
    static final Path ROOT = Path.of(System.getProperty("weir.docs.root", "..")).toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void everyRelativeLinkResolves()
    {
        final List<String> broken = DocsLinks.broken(ROOT, pages());
        assertTrue(broken.isEmpty(), broken.size() + " broken links:\n" + String.join("\n", broken));
    }

    @Test
    void everyFlagShownInCodeIsAWeirOption()
    {
        final List<String> unknown = DocsFlags.unknown(pages(), DocsFlags.weirFlags());
        assertTrue(unknown.isEmpty(), unknown.size() + " flags of no weir command:\n" + String.join("\n", unknown));
    }

    @Test
    void everyRunnableBlockIsWellFormed()
    {
        final List<String> malformed = RunnableBlocks.malformed(pages());
        assertTrue(malformed.isEmpty(), String.join("\n", malformed));
    }

    @Test
    void aPlantedBrokenLinkIsFound() throws IOException
    {
        final Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(dir.resolve("README.md"), "# Weir\n\nSee [the CLI](docs/cli.md#weir-run) and [gone](docs/gone.md).\n"
            + "Not [outside](../DESIGN.md), nor `[code](x.md)` or [the web](https://example.org/x.md).\n");
        Files.writeString(docs.resolve("cli.md"), "# The command guide\n\n### `weir run`\n\nBack to [the top](../README.md#weir), "
            + "[a section](#the-command-guide), [a missing one](#weir-runs).\n\n```sh\n[not a link](nowhere.md)\n```\n");

        final List<String> broken = DocsLinks.broken(dir, MarkdownPage.documentation(dir));

        assertEquals(3, broken.size(), String.join("\n", broken));
        assertEquals("README.md:3: link 'docs/gone.md': no such file docs/gone.md", broken.get(0));
        assertTrue(broken.get(1).startsWith("README.md:4: link '../DESIGN.md' points outside the repository"), broken.get(1));
        assertEquals("docs/cli.md:5: link '#weir-runs': docs/cli.md has no heading with the anchor #weir-runs", broken.get(2));
    }

    @Test
    void aPlantedUnknownFlagIsFound() throws IOException
    {
        Files.writeString(dir.resolve("README.md"), "# Weir\n\nRun `weir run --window tumbling:10s --windw 5s`.\n\n"
            + "```sh\nweir ingest --input a.csv \\\n  --journal j --colums 'card:string'\nmvn -B -q -pl cli -am package --no-transfer-progress\n"
            + "psql --dbname weir_test -c 'select 1' | weir inspect j --pipelin spend\nkafka-topics.sh --bootstrap-server x:9092 --list\n```\n");

        final List<String> unknown = DocsFlags.unknown(MarkdownPage.documentation(dir), DocsFlags.weirFlags());

        assertEquals(List.of(
            "README.md:3: --windw is an option of no weir command, in 'weir run --window tumbling:10s --windw 5s'",
            "README.md:6: --colums is an option of no weir command, in 'weir ingest --input a.csv    --journal j --colums 'card:string''",
            "README.md:9: --pipelin is an option of no weir command, in 'psql --dbname weir_test -c 'select 1' | weir inspect j --pipelin spend'"),
            unknown);
    }

    @Test
    void aMalformedRunnableBlockIsFound() throws IOException
    {
        Files.writeString(dir.resolve("README.md"), "# Weir\n\n```sh runnable continue\nweir demo\n```\n\n```sh runnable exit=two\nweir\n```\n");

        assertEquals(List.of(
            "README.md:3: 'continue' needs a runnable block before it on the page",
            "README.md:7: 'exit=two' in 'sh runnable exit=two': a runnable block takes only exit=N and continue after 'sh runnable'"),
            RunnableBlocks.malformed(MarkdownPage.documentation(dir)));
    }

    @Test
    void slugsAreGitHubs()
    {
        assertEquals("weir-run", MarkdownPage.slug("`weir run`"));
        assertEquals("filters-and-computed-values---where---value", MarkdownPage.slug("Filters and computed values (`--where`, `--value`)"));
        assertEquals("outputs-and-what-each-guarantees-under-rerun-and-crash", MarkdownPage.slug("Outputs, and what each guarantees under rerun and crash"));
        assertEquals("your-own-csv-in-five-minutes", MarkdownPage.slug("Your own CSV in five minutes"));
        assertEquals("5-deliver-to-postgresql", MarkdownPage.slug("5. Deliver to [PostgreSQL](https://www.postgresql.org)"));
    }

    static List<MarkdownPage> pages()
    {
        assertTrue(Files.isRegularFile(ROOT.resolve("README.md")), "the repository's root is the cli module's parent: " + ROOT);
        return MarkdownPage.documentation(ROOT);
    }
}
