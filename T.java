import com.fazecast.jSerialComm.SerialPort;
public class T {
  public static void main(String[] a) throws Exception {
    SerialPort p = SerialPort.getCommPort(a[0]);
    p.setComPortParameters(19200, 8, SerialPort.ONE_STOP_BIT, SerialPort.NO_PARITY);
    p.setComPortTimeouts(SerialPort.TIMEOUT_READ_SEMI_BLOCKING, 200, 0);
    System.out.println("open=" + p.openPort() + " path=" + p.getSystemPortPath() + " err=" + p.getLastErrorCode());
    byte[] b = new byte[100];
    p.writeBytes("hello\n".getBytes(), 6);
    long t0=System.currentTimeMillis();
    int n = p.readBytes(b, b.length);
    System.out.println("read n=" + n + " after " + (System.currentTimeMillis()-t0) + "ms: " + (n>0? new String(b,0,n):""));
    p.closePort();
  }
}
