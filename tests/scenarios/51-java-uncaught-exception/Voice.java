import java.nio.file.*;
public class Voice {
    static String load(String p) {
        try { return Files.readString(Path.of(p)); }
        catch (java.io.IOException e) { throw new IllegalStateException("cannot load voice config", e); }
    }
    public static void main(String[] a) { System.out.println("voice service starting"); load(a[0]); }
}
