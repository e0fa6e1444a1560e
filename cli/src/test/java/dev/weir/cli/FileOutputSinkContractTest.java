package dev.weir.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The {@link OutputSinkContract} of {@link dev.weir.files.FileOutputSink}: a results and a late-events CSV, line for line. */
class FileOutputSinkContractTest extends OutputSinkContract
{
    @Override
    String kind()
    {
        return "files";
    }

    @Override
    String target(final String name) throws Exception
    {
        return Files.createDirectories(dir.resolve(name).resolve("out")).toString();
    }

    @Override
    List<String> delivered(final String target, final long outputs) throws Exception
    {
        final List<String> lines = new ArrayList<>(Files.readAllLines(Path.of(target, "results.csv")));
        lines.add("--- late");
        lines.addAll(Files.readAllLines(Path.of(target, "late.csv")));
        return lines;
    }
}
