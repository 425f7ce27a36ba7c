//! `bench view` and the report in a browser (headless Chromium over the DevTools protocol).

mod browser;
mod cdp;
mod pages;
