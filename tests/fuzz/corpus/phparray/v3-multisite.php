<?php

return [

    /*
    |--------------------------------------------------------------------------
    | Sites
    |--------------------------------------------------------------------------
    |
    | Each site should have root URL that is either relative or absolute. Sites
    | are typically used for localization (eg. English/French) but may also
    | be used for related content (eg. different franchise locations).
    |
    */

    'sites' => [

        'default' => [
            'name' => config('app.name'),
            'locale' => 'en_US',
            'url' => '/',
        ],

        'fr' => array(
            "name" => "Français", // a comment
            'locale' => 'fr_FR',
            'url' => env('FR_URL', '/fr/'),
            'direction' => 'ltr',
        ),

        # versioned docs, as statamic.dev names them
        'v2.3' => [
            'name' => env('OLD_DOCS_NAME', 'Docs 2.3'),
            'locale' => 'en_US',
            'url' => '/v2.3/',
        ],

    ],
];
