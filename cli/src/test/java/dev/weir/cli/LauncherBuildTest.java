package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code weir} launcher's build of the CLI, run on a copy of the launcher in a scratch tree with a stand-in
 * {@code mvn} (prints Maven's lines, with its colour codes) and a stand-in {@code java}: a source of any module the
 * CLI is built from makes the jar stale; the build says so first, then one line per module, all on standard
 * error and with no escape code; standard output is the command's own; a failed build exits 1 with Maven's errors.
 */
class LauncherBuildTest
{
    private static final String MAVEN = """
        #!/bin/sh
        echo "$@" > "$(dirname "$0")/mvn.args"
        printf '\\033[0m\\033[0m[INFO] Scanning for projects...\\n'
        echo '[INFO] ------------------------< dev.weir:weir-journal >------------------------'
        echo '[INFO] Building Weir journal 0.1.0-SNAPSHOT                              [1/2]'
        echo '[INFO] Compiling 3 source files with javac [debug release 17] to target/classes'
        echo '[INFO] Building Weir command line 0.1.0-SNAPSHOT                         [2/2]'
        if [ -n "$FAIL_BUILD" ]; then echo '[ERROR] /src/X.java:[3,4] cannot find symbol'; printf '\\033[0m'; exit 1; fi
        mkdir -p cli/target && touch cli/target/weir.jar && echo -Dweir.test=1 > cli/target/weir.jvmopts
        printf '\\033[0m\\033[0m'
        """;
    private static final String JAVA = """
        #!/bin/sh
        echo "java $*"
        """;

    @TempDir
    Path dir;

    @Test
    void aChangedSourceOfAnyModuleRebuildsTheCliShowingOneLinePerModuleOnStandardError() throws Exception
    {
        final Path tree = tree();
        final Run run = launch(tree, false, "inspect", "j");
        assertEquals(0, run.exit(), run.err());
        assertEquals(List.of("weir: building the CLI (first run: about 2 minutes) ...", "weir:   1/2 Weir journal", "weir:   2/2 Weir command line"),
            run.err().lines().toList(), "a source of the csv module is newer than the jar: the CLI is rebuilt, with its progress");
        assertEquals("java -Dweir.test=1 -jar " + tree.resolve("cli/target/weir.jar") + " inspect j", run.out().strip(), "standard output is the command's");
        assertTrue(Files.readString(tree.resolve("bin/mvn.args")).contains(" package"), "package, not install: nothing goes to ~/.m2");
        assertFalse(run.err().contains("\u001b"), "no escape code: " + run.err());
    }

    @Test
    void aFailedBuildExitsOneWithMavensErrors() throws Exception
    {
        final Run run = launch(tree(), true, "--help");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("[ERROR] /src/X.java:[3,4] cannot find symbol"), run.err());
        assertTrue(run.err().contains("weir: the build failed"), run.err());
        assertFalse(run.err().contains("\u001b"), "no escape code: " + run.err());
        assertEquals("", run.out());
    }

    /** A scratch tree: the launcher, a jar older than a source of the csv module, a stand-in mvn and java. */
    private Path tree() throws IOException
    {
        final Path launcher = Path.of("..", "weir");
        assumeTrue(Files.isRegularFile(launcher) && Files.isExecutable(Path.of("/bin/sh")), "the launcher and a POSIX shell");
        final Path tree = dir.resolve("tree");
        Files.createDirectories(tree.resolve("cli/target"));
        Files.copy(launcher, tree.resolve("weir"));
        Files.writeString(tree.resolve("pom.xml"), "<project/>\n");
        final FileTime hourAgo = FileTime.from(Instant.now().minusSeconds(3600));
        Files.setLastModifiedTime(Files.writeString(tree.resolve("cli/target/weir.jar"), "jar"), hourAgo);
        Files.setLastModifiedTime(Files.writeString(tree.resolve("cli/target/weir.jvmopts"), "-Dweir.test=1\n"), hourAgo);
        Files.setLastModifiedTime(tree.resolve("pom.xml"), hourAgo);
        final Path source = tree.resolve("csv/src/main/java/dev/weir/csv/Changed.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "class Changed {}\n");
        executable(tree.resolve("bin/mvn"), MAVEN);
        executable(tree.resolve("jdk/bin/java"), JAVA);
        return tree;
    }

    private static void executable(final Path file, final String text) throws IOException
    {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Run launch(final Path tree, final boolean failBuild, final String... args) throws Exception
    {
        final Path out = dir.resolve("out.txt");
        final Path err = dir.resolve("err.txt");
        final List<String> command = new ArrayList<>(List.of("bash", tree.resolve("weir").toString()));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("PATH", tree.resolve("bin") + ":" + System.getenv("PATH"));
        builder.environment().put("JAVA_HOME", tree.resolve("jdk").toString());
        builder.environment().put("WEIR_CDS", "0");
        builder.environment().remove("WEIR_JAVA_OPTS");
        if (failBuild)
        {
            builder.environment().put("FAIL_BUILD", "1");
        }
        final Process process = builder.start();
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the launcher ends");
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    private record Run(int exit, String out, String err)
    {
    }
}
