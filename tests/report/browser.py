#!/usr/bin/env python3
"""Open one rootcause HTML report in headless Chromium (Debian's chromium and
chromium-driver, driven with python3-selenium) and check it as a user would
see it:

  - the page logs no console errors (and no uncaught exceptions);
  - the verdict's first cause is the expected rule (--cause none: the
    verdict finds no problem);
  - with --evidence RE: an evidence line that matches RE is linked to a call,
    and the timeline, showing the whole trace, has a bar for that call;
  - clicking the first cause (--click-linked: the first finding that quotes
    a call) highlights exactly its linked calls on the timeline (at least
    one), and clicking a highlighted bar names the finding;
  - with --stack NAME...: the first thread of the stacks section (the crashed
    one, for a core) shows each NAME, in the order given, innermost first;
  - with --code TEXT: the first cause says where in the code its call was
    made, beside its evidence, in a line that shows TEXT; a click on that
    line unfolds every frame;
  - a screenshot of the page goes to --png.

Usage: browser.py --html FILE --png FILE --cause RULE [--evidence RE]...
                  [--stack NAME...] [--code TEXT] [--crashed] [--click-linked]
       browser.py --sweep FILE...
With --sweep, each page is only opened, in one browser: no console error,
a verdict, and a timeline drawn when the page has one.
Prints "ok: ..." lines, or "not ok: ..." and exits 1; exits 77 when
Chromium, its driver or selenium is missing.
"""
import argparse
import base64
import os
import re
import sys
import time

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
except ImportError:
    print('skip: python3-selenium is not installed')
    sys.exit(77)

CHROMIUM = '/usr/bin/chromium'
DRIVER = '/usr/bin/chromedriver'


class Failed(Exception):
    pass


def driver():
    for p in (CHROMIUM, DRIVER):
        if not os.access(p, os.X_OK):
            print(f'skip: {p} is not installed')
            sys.exit(77)
    o = Options()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
              '--window-size=1280,900', '--no-first-run', '--disable-extensions',
              '--disable-background-networking', '--disable-component-update', '--disable-sync'):
        o.add_argument(a)
    o.binary_location = CHROMIUM
    o.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    d = webdriver.Chrome(service=Service(DRIVER), options=o)
    d.set_page_load_timeout(60)
    d.set_script_timeout(30)
    return d


def screenshot(d, png):
    """The whole page, down to 3000 pixels, through the DevTools protocol
    (a window's screenshot stops at the window)."""
    w, h = d.execute_script('return [document.documentElement.scrollWidth, '
                            'document.documentElement.scrollHeight]')
    shot = d.execute_cdp_cmd('Page.captureScreenshot', {
        'format': 'png', 'captureBeyondViewport': True,
        'clip': {'x': 0, 'y': 0, 'width': w, 'height': min(h, 3000), 'scale': 1}})
    with open(png, 'wb') as f:
        f.write(base64.b64decode(shot['data']))


def console_errors(d):
    return [e['message'] for e in d.get_log('browser') if e.get('level') == 'SEVERE']


def check(d, a):
    said = []
    t0 = time.monotonic()
    d.get('file://' + os.path.abspath(a.html))
    said.append(f'loaded in {time.monotonic() - t0:.2f} s')
    errs = console_errors(d)
    if errs:
        raise Failed('console errors on load: ' + ' | '.join(errs[:3]))

    # Causes worth a look: errors and warnings (notes are folded away).
    causes = d.find_elements('css selector', '#verdict > ol.findings > li.finding')
    if a.cause == 'none':
        if causes:
            raise Failed('the verdict lists a cause: ' + causes[0].find_element('css selector', '.fhead').text)
        tally = d.find_element('css selector', '#verdict .tally').text
        if 'no problems found' not in tally:
            raise Failed(f'the verdict says {tally!r}, not "no problems found"')
        said.append('the verdict finds no problem')
        first = None
    elif not causes:
        raise Failed('the verdict lists no cause')
    else:
        first = causes[0]
    if first is not None and a.code:
        check_code(d, a, first, said)
    if first is not None:
        check_cause(d, a, first, said)
    if a.stack:
        check_stack(d, a, said)
    # The whole page in one picture, as far as 3000 pixels go, with the
    # clicked finding's calls still highlighted.
    d.execute_script('window.scrollTo(0, 0)')
    screenshot(d, a.png)
    errs = console_errors(d)
    if errs:
        raise Failed('console errors: ' + ' | '.join(errs[:3]))
    said.append(f'no console errors; screenshot {a.png}')
    return said


def check_cause(d, a, first, said):
    rule = first.find_element('css selector', ':scope > .fhead .rule').text
    if rule != f'[{a.cause}]':
        raise Failed(f'the first cause is {rule}, not [{a.cause}]')
    said.append(f'the verdict names {rule} first')

    has_timeline = bool(d.find_elements('css selector', '#timeline svg'))
    for rx in a.evidence or []:
        if not has_timeline:
            raise Failed('no timeline to find evidence on')
        lines = d.find_elements('css selector', 'ul.evidence li.linked')
        hit = [li for li in lines if re.search(rx, li.get_attribute('textContent'))]
        if not hit:
            raise Failed(f'no evidence line matching {rx!r} is linked to a call')
        seq = hit[0].get_attribute('data-seq')
        d.execute_script("document.getElementById('tl-all').click()")
        if not d.find_elements('css selector', f'#timeline rect[data-seq="{seq}"]'):
            raise Failed(f'no bar on the timeline for the call of {rx!r} (position {seq})')
        said.append(f'the call of {rx!r} has a bar')

    if has_timeline and a.click_linked:
        # The first finding that quotes a call (a crash rule's cause
        # quotes frames, and its consequence the signal).
        for li in d.find_elements('css selector', '#verdict li.finding'):
            if li.find_elements('css selector', ':scope > ul.evidence li.linked'):
                first = li
                break
    if has_timeline:
        mine = first.find_elements('css selector', ':scope > ul.evidence li.linked')
        want = {li.get_attribute('data-seq') for li in mine}
        first.find_element('css selector', ':scope > .fhead').click()
        time.sleep(0.3)
        got = {r.get_attribute('data-seq') for r in d.find_elements('css selector', '#timeline rect.hl')}
        if not want:
            raise Failed('the first cause quotes no call on the timeline')
        if got != want:
            raise Failed(f'clicking the first cause highlighted {sorted(got)}, not its calls {sorted(want)}')
        if 'selected' not in first.get_attribute('class'):
            raise Failed('clicking the first cause did not select it')
        said.append(f'clicking the first cause highlights its {len(want)} call(s)')
        # And back: a click on a highlighted bar names the finding.
        d.execute_script("document.querySelector('#timeline rect.hl').dispatchEvent("
                         "new MouseEvent('click', {bubbles: true}))")
        detail = d.find_element('css selector', '#tl-detail').text
        if f'evidence of {first.get_attribute("id")}' not in detail:
            raise Failed(f'clicking its bar shows {detail!r}, not the finding')
        said.append('clicking its bar names the finding')


def check_code(d, a, first, said):
    lines = first.find_elements('css selector', ':scope > details.stack')
    if not lines:
        raise Failed('the first cause says nowhere in the code its call was made')
    summary = lines[0].find_element('css selector', 'summary')
    if a.code not in summary.text:
        raise Failed(f'the first cause\'s code line {summary.text!r} does not show {a.code!r}')
    frames = lines[0].find_element('css selector', 'pre')
    if frames.is_displayed():
        raise Failed('every frame shows before the line is clicked')
    summary.click()
    if not frames.is_displayed() or a.code not in frames.text:
        raise Failed(f'a click on the code line does not unfold frames that show {a.code!r}')
    summary.click()
    said.append(f'the first cause says where: {summary.text!r}, every frame a click away')


def check_stack(d, a, said):
    if a.stack:
        threads = d.find_elements('css selector', '#stacks details.thread')
        if not threads:
            raise Failed('no stacks section')
        t = threads[0]
        if a.crashed and 'crashed' not in t.get_attribute('class'):
            raise Failed('the first thread of the stacks is not the crashed one')
        text = t.get_attribute('textContent')
        at = 0
        for name in a.stack:
            k = text.find(name, at)
            if k < 0:
                raise Failed(f'the first thread\'s stack does not show {name!r} (after what came before)')
            at = k + len(name)
        said.append('the first thread shows ' + ' < '.join(a.stack))


def sweep(d, files):
    bad = 0
    for path in files:
        d.get('file://' + os.path.abspath(path))
        errs = console_errors(d)
        why = None
        if errs:
            why = 'console errors: ' + ' | '.join(errs[:3])
        elif not d.find_elements('css selector', '#verdict .tally'):
            why = 'no verdict'
        elif d.find_elements('css selector', '#rc-data') and not d.execute_script(
                "return document.querySelectorAll('#timeline rect.lane').length"):
            why = 'the timeline was not drawn'
        if why:
            bad += 1
            print(f'not ok: {path}: {why}')
    print(f'{"ok" if not bad else "not ok"}: {len(files) - bad} of {len(files)} pages open cleanly')
    return 1 if bad else 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--sweep':
        d = driver()
        try:
            return sweep(d, sys.argv[2:])
        finally:
            d.quit()
    p = argparse.ArgumentParser()
    p.add_argument('--html', required=True)
    p.add_argument('--png', required=True)
    p.add_argument('--cause', required=True)
    p.add_argument('--evidence', action='append')
    p.add_argument('--stack', nargs='+')
    p.add_argument('--code')
    p.add_argument('--crashed', action='store_true')
    p.add_argument('--click-linked', action='store_true',
                   help='click the first finding that quotes a call, not the first cause')
    a = p.parse_args()
    try:
        d = driver()
    except WebDriverException as e:
        print(f'not ok: {a.html}: chromium did not start: {str(e).splitlines()[0]}')
        return 1
    try:
        for line in check(d, a):
            print(f'ok: {line}')
        return 0
    except Failed as e:
        print(f'not ok: {a.html}: {e}')
        try:
            screenshot(d, a.png)
        except WebDriverException:
            pass
        return 1
    except WebDriverException as e:
        print(f'not ok: {a.html}: {str(e).splitlines()[0]}')
        return 1
    finally:
        d.quit()


if __name__ == '__main__':
    sys.exit(main())
